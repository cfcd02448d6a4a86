import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../../contracts/batches';
import type { PlacedOrder } from '../../../contracts/order';
import type { Product } from '../../../contracts/product';
import { queryRows } from '../../db/client';
import { orders, users } from '../../db/schema';
import type { MailMessage } from '../../lib/mail';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

// The shop's clock, moved by the tests: Tuesday 1 December 2026, 10:00 am in New Zealand.
const start = Date.parse('2026-11-30T21:00:00Z');
let now = start;
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => {
  ({ shop, staff } = await openStaffShop({ clock: () => new Date(now) }));
});
afterAll(async () => shop?.close());

const putProduct = (id: number, payload: Record<string, unknown>) => staff({ method: 'PUT', url: `/api/products/${id}`, payload });
const productOf = async (id: number) => (await shop.app.inject({ method: 'GET', url: `/api/products/${id}` })).json<Product>();
const sweep = () => shop.app.services.readyReminders.sendDue();

async function addBatch(productId: number, boxes: number, harvestedOn: string, bestBefore: string): Promise<BatchView> {
  const response = await staff({ method: 'POST', url: `/api/admin/inventory/${productId}/batches`, payload: { boxes, harvestedOn, bestBefore } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<BatchView>();
}

/** A variety of the test's own: no stock but the batches the test records, ready 8 days after harvest, at its best 4. */
async function variety(name: string) {
  const product = await testProduct(shop, { name, stock: 0 });
  expect((await putProduct(product.id, { ripeningDays: 8, daysAtBest: 4 })).statusCode).toBe(200);
  return product;
}

async function setStatus(number: string, status: string) {
  const shipping = status === 'shipped' ? { carrier: 'nz_post', trackingNumber: `NZP-${number}` } : {};
  const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status, ...shipping } });
  expect(response.statusCode, response.body).toBe(200);
}

/** An order of the products (a box each) by a shopper of its own, taken through paid and packed to shipped. */
async function shippedOrder(...productIds: number[]) {
  const shopper = await quickShopper(shop, 'ripe');
  for (const productId of productIds) await shopper.add(productId, 1);
  const placed = await shopper.order();
  expect(placed.statusCode, placed.body).toBe(201);
  const { number, deliveryDate } = placed.json<PlacedOrder>().order;
  for (const status of ['paid', 'packed', 'shipped']) await setStatus(number, status);
  return { shopper, number, deliveryDate: deliveryDate! };
}

async function mailSince(count: number): Promise<MailMessage[]> {
  return (await shop.mail()).slice(count);
}

const readyMailsTo = (mails: MailMessage[], to: string) => mails.filter((mail) => mail.to === to && mail.subject === 'Your mangoes should be ready to eat');

describe('a variety\u2019s ripening clock', () => {
  it('is set per product, both numbers or neither, each checked field by field', async () => {
    const product = await testProduct(shop, { name: 'Clock Kesar' });
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ ripeningDays: 8 }, 'daysAtBest', 'Days at its best is needed with ripening days'],
      [{ daysAtBest: 4 }, 'ripeningDays', 'Ripening days are needed with days at its best'],
      [{ ripeningDays: -1, daysAtBest: 4 }, 'ripeningDays', 'Ripening days cannot be negative'],
      [{ ripeningDays: 61, daysAtBest: 4 }, 'ripeningDays', 'Ripening days must be at most 60'],
      [{ ripeningDays: 2.5, daysAtBest: 4 }, 'ripeningDays', 'Ripening days must be a whole number'],
      [{ ripeningDays: 8, daysAtBest: 0 }, 'daysAtBest', 'Days at its best must be at least 1'],
      [{ ripeningDays: 8, daysAtBest: '4' }, 'daysAtBest', 'Days at its best must be a whole number'],
    ];
    for (const [payload, field, message] of refusals) {
      const refused = await putProduct(product.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors[field]).toBe(message);
    }
    expect(await productOf(product.id)).toMatchObject({ ripeningDays: null, daysAtBest: null });

    const set = await putProduct(product.id, { ripeningDays: 8, daysAtBest: 4 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Product>()).toMatchObject({ ripeningDays: 8, daysAtBest: 4 });
    expect(await productOf(product.id)).toMatchObject({ ripeningDays: 8, daysAtBest: 4 });
    // Changing one keeps the other; clearing one alone leaves half a clock, so it is refused.
    expect((await putProduct(product.id, { daysAtBest: 5 })).json<Product>()).toMatchObject({ ripeningDays: 8, daysAtBest: 5 });
    expect((await putProduct(product.id, { ripeningDays: null })).statusCode).toBe(400);
    expect((await putProduct(product.id, { ripeningDays: null, daysAtBest: null })).json<Product>()).toMatchObject({ ripeningDays: null, daysAtBest: null });
  });

  it('tells shoppers the harvest of the batch the next order would be packed from, after the boxes already sold', async () => {
    const product = await variety('Next Batch Alphonso');
    expect((await productOf(product.id)).nextHarvestedOn, 'nothing to sell').toBeNull();
    await addBatch(product.id, 5, '2026-11-24', '2026-12-08');
    // Expires first, so it is packed first.
    await addBatch(product.id, 3, '2026-11-20', '2026-12-05');
    expect((await productOf(product.id)).nextHarvestedOn).toBe('2026-11-20');

    // Three boxes sold and not packed yet take the first batch: the next box comes from the other.
    const shopper = await quickShopper(shop, 'nextbatch');
    await shopper.add(product.id, 3);
    expect((await shopper.order()).statusCode).toBe(201);
    expect((await productOf(product.id)).nextHarvestedOn).toBe('2026-11-24');
    // A batch without a harvest date says nothing.
    const unknown = await testProduct(shop, { name: 'Unknown Harvest', stock: 4 });
    expect((await putProduct(unknown.id, { ripeningDays: 8, daysAtBest: 4 })).statusCode).toBe(200);
    expect((await productOf(unknown.id)).nextHarvestedOn).toBeNull();
  });
});

describe('the shipping e-mail and the first ready day', () => {
  it('carries the ripening guide, then mails the shopper once on the first ready day, from 8 am, whoever sweeps', async () => {
    const product = await variety('Reminder Alphonso');
    // Harvested 28 November: ready 6 to 9 December, well after the boxes arrive.
    await addBatch(product.id, 4, '2026-11-28', '2026-12-12');
    const seen = (await shop.mail()).length;
    const { shopper, number } = await shippedOrder(product.id);
    const shipped = (await mailSince(seen)).find((mail) => mail.subject === `Order ${number} is on its way`)!;
    expect(shipped.text).toContain('Reminder Alphonso: ready to eat around 6–9 December (ready to eat about 8 days after harvest, then at their best for 4 days).');
    expect(shipped.text).toContain('Keep them out of the fridge until they are ripe');
    expect(shipped.text).toContain('We will e-mail you on Sun, 6 December 2026, the first day they should be ready.');
    expect(shipped.text).toMatch(/No reminder, thanks: http:\/\/[^\s]+\/api\/ripeness-reminders\/opt-out\?token=/);
    expect(shipped.html).toContain('ready to eat around 6–9 December');

    // Staff change the variety's clock after it shipped: the order keeps the days it was told.
    expect((await putProduct(product.id, { ripeningDays: null, daysAtBest: null })).statusCode).toBe(200);
    const before = (await shop.mail()).length;
    expect(await sweep(), 'days before').toBe(0);
    now = Date.parse('2026-12-05T18:30:00Z'); // 7:30 am on Sunday 6 December
    try {
      expect(await sweep(), 'before 8 am').toBe(0);
      now = Date.parse('2026-12-05T19:30:00Z'); // 8:30 am
      // Two processes sweep at once: the order's reminder is queued once.
      const [a, b] = await Promise.all([sweep(), sweep()]);
      expect(a + b).toBe(1);
      expect(await sweep()).toBe(0);
      const ready = readyMailsTo(await mailSince(before), shopper.user.email);
      expect(ready).toHaveLength(1);
      expect(ready[0]!.text).toContain(`From today your mangoes from order ${number} should be ready to eat, variety by variety:`);
      expect(ready[0]!.text).toContain('Reminder Alphonso: ready now, at their best until 9 December');
      expect(ready[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(ready[0]!.headers?.['List-Unsubscribe']).toMatch(/^<http:\/\/[^>]+\/api\/ripeness-reminders\/opt-out\?token=[\w-]+>$/);
    } finally {
      now = start;
    }
  });

  it('needs no reminder for fruit ripe when it arrives, and passes over one the shop could not send in time', async () => {
    const product = await variety('Ripe Already Kesar');
    // Harvested 22 November: ready 30 November to 3 December.
    await addBatch(product.id, 4, '2026-11-22', '2026-12-06');
    const seen = (await shop.mail()).length;
    const { number } = await shippedOrder(product.id);
    const shipped = (await mailSince(seen)).find((mail) => mail.subject === `Order ${number} is on its way`)!;
    expect(shipped.text).toContain('Ripe Already Kesar: ready to eat when they arrive, at their best until 3 December');
    expect(shipped.text).not.toContain('We will e-mail you on');
    const [row] = await shop.database.db.select({ on: orders.readyMailOn }).from(orders).where(eq(orders.number, number));
    expect(row!.on).toBeNull();

    // The shop was down from the day to three days after: that reminder is too late to send.
    const late = await variety('Late Reminder Langra');
    await addBatch(late.id, 2, '2026-11-28', '2026-12-12');
    const { shopper } = await shippedOrder(late.id);
    now = Date.parse('2026-12-08T20:00:00Z'); // Wednesday 9 December, 9 am
    try {
      const before = (await shop.mail()).length;
      await sweep();
      expect(readyMailsTo(await mailSince(before), shopper.user.email)).toEqual([]);
    } finally {
      now = start;
    }
  });
});

describe('an order of fruit on different clocks', () => {
  it('is reminded on the first day fruit ripening after it arrives is ready, naming only what is ready or still to come', async () => {
    const early = await variety('Mixed Early Kesar');
    await addBatch(early.id, 2, '2026-11-22', '2026-12-06'); // ready 30 November to 3 December: ripe on arrival
    const later = await variety('Mixed Later Alphonso');
    await addBatch(later.id, 2, '2026-11-29', '2026-12-14'); // ready 7 to 10 December
    const latest = await variety('Mixed Latest Neelam');
    await addBatch(latest.id, 2, '2026-12-01', '2026-12-16'); // ready 9 to 12 December
    const seen = (await shop.mail()).length;
    const { shopper, number } = await shippedOrder(early.id, later.id, latest.id);
    const shipped = (await mailSince(seen)).find((mail) => mail.subject === `Order ${number} is on its way`)!;
    expect(shipped.text).toContain('Mixed Early Kesar: ready to eat when they arrive, at their best until 3 December');
    expect(shipped.text).toContain('Mixed Later Alphonso: ready to eat around 7–10 December');
    expect(shipped.text).toContain('We will e-mail you on Mon, 7 December 2026, the first day they should be ready.');

    now = Date.parse('2026-12-06T19:30:00Z'); // 8:30 am on Monday 7 December
    try {
      const before = (await shop.mail()).length;
      expect(await sweep()).toBe(1);
      const [ready] = readyMailsTo(await mailSince(before), shopper.user.email);
      expect(ready!.text).toContain('Mixed Later Alphonso: ready now, at their best until 10 December');
      expect(ready!.text).toContain('Mixed Latest Neelam: not yet, ready around 9–12 December');
      expect(ready!.text, 'past its best: not named').not.toContain('Mixed Early Kesar');
    } finally {
      now = start;
    }
  });
});

describe('turning the reminders off', () => {
  it('takes one click from the e-mail (a GET only asks), and the account can turn them back on', async () => {
    const product = await variety('Opt Out Dasheri');
    await addBatch(product.id, 4, '2026-11-28', '2026-12-12');
    const seen = (await shop.mail()).length;
    const { shopper, number } = await shippedOrder(product.id);
    const shipped = (await mailSince(seen)).find((mail) => mail.subject === `Order ${number} is on its way`)!;
    const link = new URL(/No reminder, thanks: (\S+)/.exec(shipped.text)![1]!);
    const address = `${link.pathname}${link.search}`;

    // A mail scanner opening the link changes nothing.
    const asked = await shop.app.inject({ method: 'GET', url: address });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('No more ripeness reminders?');
    expect(asked.body).toContain('<button type="submit">Turn off</button>');
    const offAt = async () => (await shop.database.db.select({ at: users.readyMailOffAt }).from(users).where(eq(users.id, shopper.user.id)))[0]!.at;
    expect(await offAt()).toBeNull();
    expect((await shopper.call({ method: 'GET', url: '/api/account/reminders' })).json()).toEqual({ ripenessReminders: true, reviewRequests: true });

    // The mail client's one-click post, from its own servers: no cookie, no origin of ours.
    const clicked = await shop.app.inject({ method: 'POST', url: address, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.com' }, payload: 'List-Unsubscribe=One-Click' });
    expect(clicked.statusCode, clicked.body).toBe(200);
    expect(clicked.body).toContain('Reminders turned off');
    expect(await offAt()).not.toBeNull();
    expect((await shopper.call({ method: 'GET', url: '/api/account/reminders' })).json()).toEqual({ ripenessReminders: false, reviewRequests: true });

    // On the day, nothing for them.
    now = Date.parse('2026-12-05T19:30:00Z');
    try {
      const before = (await shop.mail()).length;
      await sweep();
      expect(readyMailsTo(await mailSince(before), shopper.user.email)).toEqual([]);
    } finally {
      now = start;
    }

    // A link that is not one of ours is turned away, and changes nothing.
    for (const bad of ['/api/ripeness-reminders/opt-out?token=not-a-real-token-at-all-xyz', '/api/ripeness-reminders/opt-out']) {
      const refused = await shop.app.inject({ method: 'POST', url: bad, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toContain('Link not valid');
    }

    // Back on from the account page; bad input is a field error.
    const wrong = await shopper.call({ method: 'PUT', url: '/api/account/reminders', payload: { ripenessReminders: 'yes' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ fieldErrors: Record<string, string> }>().fieldErrors.ripenessReminders).toBe('Ripeness reminders must be true or false');
    expect((await shopper.call({ method: 'PUT', url: '/api/account/reminders', payload: { ripenessReminders: true } })).json()).toEqual({ ripenessReminders: true, reviewRequests: true });
    expect(await offAt()).toBeNull();
    expect((await shop.app.inject({ method: 'GET', url: '/api/account/reminders' })).statusCode, 'signed out').toBe(401);
  });
});

describe('the seeded shop', () => {
  it('has a clock for each variety and dated opening stock, so its product pages say when the fruit is ready', async () => {
    const alphonso = await queryRows<{ name: string; ripening_days: number | null; harvested_on: string | null }>(shop.database.db, sql`
      select p.name, p.ripening_days, b.harvested_on::text from products p left join stock_batches b on b.product_id = p.id and b.note = 'Opening stock'
      where p.name = 'Alphonso Mangoes'`);
    expect(alphonso[0]).toMatchObject({ ripening_days: 8, harvested_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });
});
