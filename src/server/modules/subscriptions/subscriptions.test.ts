import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryDayOption } from '../../../contracts/delivery';
import type { SubscriptionView } from '../../../contracts/subscriptions';
import { quickShopper, testProduct, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

/**
 * Tuesday 2 March 2027, 11:00 in Auckland. Auckland is delivered Tuesday to Friday with a day's
 * lead: Friday 5 March's box is packed Thursday, and its cut-off is Wednesday 3 March, 12:00.
 */
const tuesday = new Date('2027-03-01T22:00:00Z');
const afterFridaysCutoff = new Date('2027-03-02T23:00:00Z');
let now = tuesday;
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop({ clock: () => now, deliveryCapacity: 40 })));
afterAll(async () => shop?.close());

const boxProduct = (values: Parameters<typeof testProduct>[1] = {}) => testProduct(shop, { subscribable: true, subscriberDiscountPercent: 10, priceCents: 5000, stock: 50, ...values });

async function subscribe(shopper: Awaited<ReturnType<typeof quickShopper>>, payload: Record<string, unknown>) {
  return shopper.call({ method: 'POST', url: '/api/subscriptions', payload: { quantity: 1, every: 'week', firstDeliveryDate: '2027-03-05', shipping: testShipping, paymentMethod: 'bank_transfer', ...payload } });
}

describe('subscribing to a season box', () => {
  it('answers 201 with the coming boxes, priced less the subscriber discount, and mails the first date', async () => {
    now = tuesday;
    const product = await boxProduct({ seasonEndsOn: '2027-04-02' });
    const shopper = await quickShopper(shop, 'regular');
    const response = await subscribe(shopper, { productId: product.id, quantity: 2, every: 'fortnight' });
    expect(response.statusCode, response.body).toBe(201);
    const view = response.json<SubscriptionView>();
    expect(view).toMatchObject({ status: 'active', quantity: 2, every: 'fortnight', weekday: 'Fri', firstDeliveryDate: '2027-03-05', lastDeliveryDate: '2027-04-02', unitPriceCents: 4500 });
    expect(view.coming.map((box) => [box.date, box.state, box.open])).toEqual([
      ['2027-03-05', 'scheduled', true],
      ['2027-03-19', 'scheduled', true],
      ['2027-04-02', 'scheduled', true],
    ]);
    expect(view.coming[0]!.cutoffAt).toBe('2027-03-02T23:00:00.000Z');
    expect(view.coming[0]!.totalCents).toBe(2 * 4500 + view.deliveryCents);
    const mail = (await shop.mail()).filter((one) => one.to === shopper.user.email);
    // Its first cut-off is a day away: the "skip or change it" mail comes at once.
    expect(mail.map((one) => one.subject)).toEqual([`Your season box of ${product.name} is set up`, 'Your box arrives on Friday 5 March: skip or change it by Wednesday 12 pm']);
    expect(mail[0]!.text).toContain('Your first box arrives on Friday 5 March.');
    expect(mail[0]!.text).toContain('Last box of the season: Friday 2 April');
  });

  it('refuses what cannot be a season box, field by field', async () => {
    now = tuesday;
    const shopper = await quickShopper(shop, 'careful');
    const plain = await testProduct(shop);
    const product = await boxProduct();
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ productId: plain.id }, 400, 'productId', `${plain.name} is not offered as a season box.`],
      [{ productId: product.id, firstDeliveryDate: '2027-03-08' }, 400, 'firstDeliveryDate', 'We do not deliver to Auckland on Monday 8 March. Please choose one of the dates offered.'],
      [{ productId: product.id, firstDeliveryDate: '2027-03-03' }, 400, 'firstDeliveryDate', 'Wednesday 3 March is too soon for a first season box: its cut-off has passed. Please choose a later date.'],
      [{ productId: product.id, every: 'month' }, 400, 'every', 'Choose every week or every fortnight'],
      [{ productId: product.id, quantity: 11 }, 400, 'quantity', 'At most 10 boxes a delivery'],
      [{ productId: product.id, paymentMethod: 'stripe' }, 400, 'paymentMethod', 'Card payment is not available at the moment. Please choose bank transfer.'],
    ];
    for (const [payload, status, field, message] of cases) {
      const response = await subscribe(shopper, payload);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().fieldErrors[field]).toBe(message);
    }
    const signedOut = await shop.app.inject({ method: 'POST', url: '/api/subscriptions', payload: { productId: product.id } });
    expect(signedOut.statusCode).toBe(401);
    expect((await shopper.call({ method: 'GET', url: '/api/subscriptions' })).json().subscriptions).toEqual([]);
  });

  it("keeps a delivery day's places for its season boxes: other shoppers see fewer", async () => {
    now = tuesday;
    const product = await boxProduct();
    const dates = async () => {
      const response = await shop.app.inject({ method: 'GET', url: '/api/delivery/dates?region=Auckland&boxes=1' });
      return response.json<{ dates: DeliveryDayOption[] }>().dates;
    };
    const before = (await dates()).find((day) => day.date === '2027-03-12')!;
    expect(before.state.available).toBe(true);
    // 40 boxes a day: a season box of 10 on Friday 12 March leaves 30; three more fill it.
    for (let n = 0; n < 4; n += 1) {
      const response = await subscribe(await quickShopper(shop, 'filler'), { productId: product.id, quantity: 10, firstDeliveryDate: '2027-03-12' });
      expect(response.statusCode, response.body).toBe(201);
    }
    expect((await dates()).find((day) => day.date === '2027-03-12')!.state).toEqual({ available: false, reason: 'Fully booked' });
    const full = await subscribe(await quickShopper(shop, 'late'), { productId: product.id, firstDeliveryDate: '2027-03-12' });
    expect(full.statusCode, full.body).toBe(409);
    expect(full.json().fieldErrors.firstDeliveryDate).toBe('Friday 12 March is fully booked. Please choose another delivery day.');
    // Weekly: the next Fridays are held too, and Thursday 11 March is not.
    expect((await dates()).find((day) => day.date === '2027-03-19')!.state.available).toBe(false);
    expect((await dates()).find((day) => day.date === '2027-03-11')!.state.available).toBe(true);
  });
});

describe("the shopper's own season box", () => {
  it('skips and brings back a box before its cut-off, and not after', async () => {
    now = tuesday;
    const shopper = await quickShopper(shop, 'skipper');
    const created = (await subscribe(shopper, { productId: (await boxProduct()).id })).json<SubscriptionView>();
    const skip = (date: string, method: 'POST' | 'DELETE') => shopper.call({ method, url: `/api/subscriptions/${created.id}/deliveries/${date}/skip` });
    const skipped = await skip('2027-03-05', 'POST');
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json<SubscriptionView>().coming.slice(0, 2).map((box) => box.state)).toEqual(['skipped', 'scheduled']);
    // Delivery settings saved meanwhile (the cached copy dropped): the skip still reads them outside its transaction.
    await shop.app.services.bus.publish('settings');
    const back = await skip('2027-03-05', 'DELETE');
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<SubscriptionView>().coming[0]!.state).toBe('scheduled');
    expect((await skip('2027-03-06', 'POST')).statusCode).toBe(404);
    now = afterFridaysCutoff;
    const late = await skip('2027-03-05', 'POST');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('The box on Friday 5 March is past its cut-off: it can no longer be skipped.');
    // The next Friday is still open.
    expect((await skip('2027-03-12', 'POST')).json<SubscriptionView>().coming.find((box) => box.date === '2027-03-12')!.state).toBe('skipped');
    now = tuesday;
  });

  it('changes the next box only, or every box', async () => {
    now = tuesday;
    const shopper = await quickShopper(shop, 'changer');
    const product = await boxProduct();
    const other = await boxProduct({ priceCents: 6000, subscriberDiscountPercent: 0 });
    const created = (await subscribe(shopper, { productId: product.id })).json<SubscriptionView>();
    const change = (payload: Record<string, unknown>) => shopper.call({ method: 'PATCH', url: `/api/subscriptions/${created.id}`, payload });
    const next = await change({ productId: other.id, quantity: 3, scope: 'next' });
    expect(next.statusCode, next.body).toBe(200);
    const nextView = next.json<SubscriptionView>();
    expect(nextView.coming.slice(0, 2).map((box) => [box.productName, box.quantity, box.changedForThisBox])).toEqual([
      [other.name, 3, true],
      [product.name, 1, false],
    ]);
    expect(nextView.coming[0]!.totalCents).toBe(3 * 6000 + nextView.deliveryCents);
    const all = await change({ quantity: 2, scope: 'all' });
    expect(all.json<SubscriptionView>().coming.slice(0, 2).map((box) => [box.productName, box.quantity])).toEqual([
      [product.name, 2],
      [product.name, 2],
    ]);
    const bad = await change({ scope: 'next' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors.quantity).toBe('Change the product or the quantity');
    const notABox = await change({ productId: (await testProduct(shop)).id, scope: 'all' });
    expect(notABox.statusCode).toBe(400);
  });

  it('pauses with a resume date, resumes, and cancels in one call', async () => {
    now = tuesday;
    const shopper = await quickShopper(shop, 'pauser');
    const created = (await subscribe(shopper, { productId: (await boxProduct()).id })).json<SubscriptionView>();
    const paused = await shopper.call({ method: 'POST', url: `/api/subscriptions/${created.id}/pause`, payload: { resumeOn: '2027-03-15' } });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<SubscriptionView>()).toMatchObject({ status: 'paused', pausedUntil: '2027-03-15' });
    expect(paused.json<SubscriptionView>().coming.slice(0, 3).map((box) => box.state)).toEqual(['paused', 'paused', 'scheduled']);
    const resumed = await shopper.call({ method: 'POST', url: `/api/subscriptions/${created.id}/resume` });
    expect(resumed.json<SubscriptionView>().coming[0]!.state).toBe('scheduled');
    const cancelled = await shopper.call({ method: 'DELETE', url: `/api/subscriptions/${created.id}` });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<SubscriptionView>()).toMatchObject({ status: 'cancelled', coming: [] });
    const again = await shopper.call({ method: 'POST', url: `/api/subscriptions/${created.id}/resume` });
    expect(again.statusCode).toBe(409);
  });

  it("answers 404 for another shopper's season box, whatever the call", async () => {
    now = tuesday;
    const owner = await quickShopper(shop, 'owner');
    const created = (await subscribe(owner, { productId: (await boxProduct()).id })).json<SubscriptionView>();
    const stranger = await quickShopper(shop, 'stranger');
    const calls = [
      { method: 'GET', url: `/api/subscriptions/${created.id}` },
      { method: 'PATCH', url: `/api/subscriptions/${created.id}`, payload: { quantity: 2, scope: 'all' } },
      { method: 'POST', url: `/api/subscriptions/${created.id}/deliveries/2027-03-05/skip` },
      { method: 'DELETE', url: `/api/subscriptions/${created.id}/deliveries/2027-03-05/skip` },
      { method: 'POST', url: `/api/subscriptions/${created.id}/pause` },
      { method: 'POST', url: `/api/subscriptions/${created.id}/resume` },
      { method: 'DELETE', url: `/api/subscriptions/${created.id}` },
    ] as const;
    for (const call of calls) {
      const response = await stranger.call(call);
      expect(response.statusCode, `${call.method} ${call.url} ${response.body}`).toBe(404);
    }
    const mine = await owner.call({ method: 'GET', url: `/api/subscriptions/${created.id}` });
    expect(mine.json<SubscriptionView>()).toMatchObject({ status: 'active', quantity: 1 });
    expect(mine.json<SubscriptionView>().coming[0]!.state).toBe('scheduled');
    void staff;
  });
});
