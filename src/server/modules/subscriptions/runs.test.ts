import { eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionRunResult, SubscriptionView } from '../../../contracts/subscriptions';
import { openPostgres } from '../../db/client';
import { orderLines, orders, products as productsTable, subscriptionDeliveries, subscriptions as subscriptionsTable } from '../../db/schema';
import { quickShopper, stockOf, testProduct, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';
import { DeliveryService } from '../delivery/service';
import { SubscriptionRuns } from './runs';

/** Tuesday 2 March 2027, 11:00 NZDT: Friday 5 March's boxes (Auckland) have their cut-off on Wednesday at 12:00. */
const tuesday = new Date('2027-03-01T22:00:00Z');
const wednesdayAfterCutoff = new Date('2027-03-02T23:05:00Z');
let now = tuesday;
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop({ clock: () => now })));
afterAll(async () => shop?.close());

async function subscriber(productId: number, quantity = 1, firstDeliveryDate = '2027-03-05') {
  now = tuesday;
  const shopper = await quickShopper(shop, 'runner');
  const response = await shopper.call({ method: 'POST', url: '/api/subscriptions', payload: { productId, quantity, every: 'week', firstDeliveryDate, shipping: testShipping, paymentMethod: 'bank_transfer' } });
  expect(response.statusCode, response.body).toBe(201);
  return { shopper, subscription: response.json<SubscriptionView>() };
}

const startRun = (deliveryDate: string) => staff({ method: 'POST', url: '/api/admin/subscription-runs', payload: { deliveryDate } });

/** The mail delivered to `to` since the last look. */
const seen = new Set<object>();
async function newMailTo(to: string) {
  const fresh = (await shop.mail()).filter((one) => !seen.has(one));
  for (const one of fresh) seen.add(one);
  return fresh.filter((one) => one.to === to);
}

async function seasonOrders(subscriptionIds: number[], date: string) {
  const keys = subscriptionIds.map((id) => `season-box:${id}:${date}`);
  return shop.database.db.select().from(orders).where(inArray(orders.idempotencyKey, keys));
}

describe('a run', () => {
  it('makes each subscription its order once, however often it is started', async () => {
    const product = await testProduct(shop, { subscribable: true, subscriberDiscountPercent: 10, priceCents: 5000, stock: 20 });
    const subs = await Promise.all([subscriber(product.id, 2), subscriber(product.id, 1)]);
    const ids = subs.map(({ subscription }) => subscription.id);
    await newMailTo('');
    const first = await startRun('2027-03-05');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<SubscriptionRunResult>()).toMatchObject({ deliveryDate: '2027-03-05', ordered: 2, missed: 0 });
    const again = await Promise.all([startRun('2027-03-05'), startRun('2027-03-05')]);
    for (const response of again) expect(response.json<SubscriptionRunResult>()).toMatchObject({ ordered: 0, missed: 0 });
    const made = await seasonOrders(ids, '2027-03-05');
    expect(made).toHaveLength(2);
    expect(await stockOf(shop, product.id)).toBe(17);
    const [order] = made.filter((row) => row.userId === subs[0]!.shopper.user.id);
    expect(order).toMatchObject({ status: 'pending_payment', paymentMethod: 'bank_transfer', deliveryDate: '2027-03-05', dispatchDate: '2027-03-04', deliveryBoxes: 2, subtotalCents: 9000 });
    // Packed Thursday: the transfer is due by its packing cut-off, Thursday 12:00.
    expect(order!.payBy!.toISOString()).toBe('2027-03-03T23:00:00.000Z');
    const [line] = await shop.database.db.select().from(orderLines).where(eq(orderLines.orderId, order!.id));
    expect(line).toMatchObject({ productId: product.id, unitPriceCents: 4500, quantity: 2 });
    const mail = await newMailTo(subs[0]!.shopper.user.email);
    expect(mail.map((one) => one.subject)).toEqual([`Your order ${order!.number} at Mango Shop`]);
    expect(mail[0]!.text).toContain('bank transfer');
    const view = (await subs[0]!.shopper.call({ method: 'GET', url: `/api/subscriptions/${ids[0]}` })).json<SubscriptionView>();
    expect(view.coming[0]).toMatchObject({ date: '2027-03-05', state: 'ordered', orderNumber: order!.number, open: false });
    // Ordered, the box can no longer be skipped.
    const skip = await subs[0]!.shopper.call({ method: 'POST', url: `/api/subscriptions/${ids[0]}/deliveries/2027-03-05/skip` });
    expect(skip.statusCode).toBe(409);
  });

  it('fills the oldest subscriptions first when stock is short, and mails the rest when their next box comes', async () => {
    const product = await testProduct(shop, { subscribable: true, stock: 3 });
    const oldest = await subscriber(product.id, 2);
    const middle = await subscriber(product.id, 1);
    const newest = await subscriber(product.id, 1);
    await newMailTo('');
    const response = await startRun('2027-03-05');
    expect(response.json<SubscriptionRunResult>()).toMatchObject({ ordered: 2, missed: 1 });
    const made = await seasonOrders([oldest, middle, newest].map(({ subscription }) => subscription.id), '2027-03-05');
    expect(made.map((row) => row.userId).sort()).toEqual([oldest.shopper.user.id, middle.shopper.user.id].sort());
    expect(await stockOf(shop, product.id)).toBe(0);
    const mail = await newMailTo(newest.shopper.user.email);
    expect(mail.map((one) => one.subject)).toEqual(['No season box on Friday 5 March']);
    expect(mail[0]!.text).toContain('Your next box comes on Friday 12 March.');
    const view = (await newest.shopper.call({ method: 'GET', url: `/api/subscriptions/${newest.subscription.id}` })).json<SubscriptionView>();
    expect(view.coming[0]).toMatchObject({ state: 'missed', note: 'Not enough boxes this time: the harvest was short.' });
    // A second start changes nothing: the miss is decided too.
    expect((await startRun('2027-03-05')).json<SubscriptionRunResult>()).toMatchObject({ ordered: 0, missed: 0 });
    expect(await newMailTo(newest.shopper.user.email)).toHaveLength(0);
  });

  it('runs by itself at the cut-off, and leaves a skipped box out', async () => {
    const product = await testProduct(shop, { subscribable: true, stock: 10 });
    const kept = await subscriber(product.id);
    const skipped = await subscriber(product.id);
    await skipped.shopper.call({ method: 'POST', url: `/api/subscriptions/${skipped.subscription.id}/deliveries/2027-03-05/skip` });
    const runs = shop.app.services.subscriptionRuns;
    now = tuesday;
    await runs.sweep();
    expect(await seasonOrders([kept.subscription.id], '2027-03-05')).toHaveLength(0);
    now = wednesdayAfterCutoff;
    await runs.sweep();
    expect(await seasonOrders([kept.subscription.id, skipped.subscription.id], '2027-03-05')).toHaveLength(1);
    expect((await seasonOrders([kept.subscription.id], '2027-03-05'))[0]!.userId).toBe(kept.shopper.user.id);
    now = tuesday;
  });

  it('makes nothing while staff have stopped all, shown until turned back on', async () => {
    const product = await testProduct(shop, { subscribable: true, stock: 10 });
    const { subscription } = await subscriber(product.id, 1, '2027-03-12');
    const stop = await staff({ method: 'POST', url: '/api/admin/subscriptions/stop-all' });
    expect(stop.json()).toMatchObject({ stopped: true });
    expect((await staff({ method: 'GET', url: '/api/admin/subscriptions/stop-all' })).json()).toMatchObject({ stopped: true });
    const refused = await startRun('2027-03-12');
    expect(refused.statusCode).toBe(409);
    now = new Date('2027-03-09T23:05:00Z');
    await shop.app.services.subscriptionRuns.sweep();
    expect(await seasonOrders([subscription.id], '2027-03-12')).toHaveLength(0);
    const restart = await staff({ method: 'DELETE', url: '/api/admin/subscriptions/stop-all' });
    expect(restart.json()).toMatchObject({ stopped: false, since: null });
    await shop.app.services.subscriptionRuns.sweep();
    expect(await seasonOrders([subscription.id], '2027-03-12')).toHaveLength(1);
    now = tuesday;
  });

  it('makes each order once when two processes run the same date at once', async () => {
    const product = await testProduct(shop, { subscribable: true, stock: 100 });
    const subs = [];
    for (let n = 0; n < 12; n += 1) subs.push(await subscriber(product.id, 1, '2027-03-19'));
    const second = shop.databaseUrl ? await openPostgres(shop.databaseUrl, { poolSize: 4 }) : shop.database;
    try {
      const services = shop.app.services;
      const delivery = new DeliveryService(second.db, services.bus, () => now);
      const other = new SubscriptionRuns({ db: second.db, delivery, settings: services.settings, orders: services.orders, bus: services.bus, clock: () => now, publicUrl: 'http://localhost:3000', stripe: undefined, log: shop.app.log });
      const results = await Promise.all([services.subscriptionRuns.run('2027-03-19', { early: true }), other.run('2027-03-19', { early: true }), services.subscriptionRuns.run('2027-03-19', { early: true }), other.run('2027-03-19', { early: true })]);
      const keys = await shop.database.db.select({ key: orders.idempotencyKey }).from(orders).where(like(orders.idempotencyKey, 'season-box:%:2027-03-19'));
      // Every order made that day (the earlier tests' weekly boxes too) was made by exactly one of the four.
      expect(results.reduce((sum, result) => sum + result.ordered, 0)).toBe(keys.length);
      expect(new Set(keys.map((row) => row.key)).size).toBe(keys.length);
      const ids = subs.map(({ subscription }) => subscription.id);
      expect(await seasonOrders(ids, '2027-03-19')).toHaveLength(12);
      const rows = await shop.database.db.select().from(subscriptionDeliveries).where(inArray(subscriptionDeliveries.subscriptionId, ids));
      expect(rows.filter((row) => row.deliveryDate === '2027-03-19' && row.state === 'ordered')).toHaveLength(12);
      expect(await stockOf(shop, product.id)).toBe(88);
    } finally {
      if (second !== shop.database) await second.close();
    }
  });
});

describe('what a run leaves alone', () => {
  it('brings back no box of the weeks a season box was paused', async () => {
    const product = await testProduct(shop, { subscribable: true, stock: 10 });
    const { shopper, subscription } = await subscriber(product.id, 1, '2027-04-02');
    now = new Date('2027-03-29T22:00:00Z');
    await shopper.call({ method: 'POST', url: `/api/subscriptions/${subscription.id}/pause` });
    // Resumed on Monday 5 April, after Friday 2 April's cut-off and its packing.
    now = new Date('2027-04-04T22:00:00Z');
    const resumed = (await shopper.call({ method: 'POST', url: `/api/subscriptions/${subscription.id}/resume` })).json<SubscriptionView>();
    expect(resumed.coming[0]!.date).toBe('2027-04-09');
    await newMailTo(shopper.user.email);
    await shop.app.services.subscriptionRuns.sweep();
    expect(await seasonOrders([subscription.id], '2027-04-02')).toHaveLength(0);
    expect((await newMailTo(shopper.user.email)).filter((mail) => mail.subject.startsWith('No season box'))).toHaveLength(0);
    now = tuesday;
  });

  it('ends a season box once its season is over, for good', async () => {
    const product = await testProduct(shop, { subscribable: true, stock: 10, seasonEndsOn: '2027-03-12' });
    const { subscription } = await subscriber(product.id, 1, '2027-03-05');
    now = new Date('2027-03-14T22:00:00Z');
    await shop.app.services.subscriptionRuns.sweep();
    const [row] = await shop.database.db.select().from(subscriptionsTable).where(eq(subscriptionsTable.id, subscription.id));
    expect(row!.status).toBe('ended');
    // Next year's season: the product's end moves on, and the old season box stays ended.
    await shop.database.db.update(productsTable).set({ seasonEndsOn: '2027-12-31' }).where(eq(productsTable.id, product.id));
    await shop.app.services.subscriptionRuns.sweep();
    expect(await seasonOrders([subscription.id], '2027-03-19')).toHaveLength(0);
    expect((await shop.database.db.select().from(subscriptionsTable).where(eq(subscriptionsTable.id, subscription.id)))[0]!.status).toBe('ended');
    now = tuesday;
  });

  it('makes no box on a day closed since, and packs none past a capacity lowered since', async () => {
    const product = await testProduct(shop, { subscribable: true, stock: 10 });
    const closedOne = await subscriber(product.id, 1, '2027-03-25');
    // Tuesday 23 March, 11:00: both runs are within the fortnight a run may be started early.
    now = new Date('2027-03-22T22:00:00Z');
    const settings = (await staff({ method: 'GET', url: '/api/admin/delivery' })).json<Record<string, unknown> & { closedDates: Array<{ date: string; reason: string }>; capacityOverrides: Array<{ date: string; boxes: number }> }>();
    const put = (next: object) => staff({ method: 'PUT', url: '/api/admin/delivery', payload: { ...settings, ...next } });
    expect((await put({ closedDates: [{ date: '2027-03-25', reason: 'Staff training' }] })).statusCode).toBe(200);
    const view = (await closedOne.shopper.call({ method: 'GET', url: `/api/subscriptions/${closedOne.subscription.id}` })).json<SubscriptionView>();
    expect(view.coming[0]).toMatchObject({ date: '2027-03-25', state: 'skipped', open: false, note: 'No delivery that day: Closed: Staff training' });
    expect((await startRun('2027-03-25')).json<SubscriptionRunResult>().ordered).toBe(0);
    expect(await seasonOrders([closedOne.subscription.id], '2027-03-25')).toHaveLength(0);
    // Wednesday 31 March packs Thursday 1 April's boxes: staff lower its capacity to none.
    expect((await put({ closedDates: [], capacityOverrides: [{ date: '2027-03-31', boxes: 0 }] })).statusCode).toBe(200);
    const result = (await startRun('2027-04-01')).json<SubscriptionRunResult>();
    expect(result.ordered).toBe(0);
    expect(await seasonOrders([closedOne.subscription.id], '2027-04-01')).toHaveLength(0);
    const missed = (await closedOne.shopper.call({ method: 'GET', url: `/api/subscriptions/${closedOne.subscription.id}` })).json<SubscriptionView>().coming.find((box) => box.date === '2027-04-01');
    expect(missed).toMatchObject({ state: 'missed', note: 'The delivery day is fully booked: we could not pack this box.' });
    expect((await put({ closedDates: [], capacityOverrides: [] })).statusCode).toBe(200);
    now = tuesday;
  });

  it('starts a run early only from today to two weeks ahead', async () => {
    now = tuesday;
    for (const deliveryDate of ['2027-03-01', '2027-03-17']) {
      const response = await startRun(deliveryDate);
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors.deliveryDate).toBe('Choose a delivery date from today to 14 days ahead.');
    }
  });
});
