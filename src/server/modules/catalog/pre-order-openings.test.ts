import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../contracts/product';
import type { WaitlistJoinAnswer } from '../../../contracts/waitlist';
import { queryRows } from '../../db/client';
import type { MailMessage } from '../../lib/mail';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { as, createTestShop, signInAdmin, type StaffCall, type TestShop } from '../../testing/test-app';

// The shop's clock, moved by the tests: Tuesday 1 December 2026, 9:00 am in New Zealand.
let now = Date.parse('2026-11-30T20:00:00Z');
const at = (iso: string) => Date.parse(iso);
/** Friday 4 December 2026, 7:00 pm in New Zealand (NZDT, +13:00). */
const fridayEvening = '2026-12-04T06:00:00.000Z';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => {
  shop = await createTestShop({}, { clock: () => new Date(now) });
  staff = as(shop.app, (await signInAdmin(shop)).cookie);
});
afterAll(async () => shop?.close());

const preOrderProduct = (name: string, values: Parameters<typeof testProduct>[1] = {}) =>
  testProduct(shop, { name, stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-20', ...values });

const setOpening = (productId: number, preOrdersOpenAt: string | null) => staff({ method: 'PUT', url: `/api/products/${productId}`, payload: { preOrdersOpenAt } });

async function mailSince(count: number): Promise<MailMessage[]> {
  return (await shop.mail()).slice(count);
}

async function ordersOf(productId: number): Promise<{ orders: number; boxes: number }> {
  const [row] = await queryRows<{ orders: number; boxes: number }>(shop.database.db, sql`
    select count(distinct order_id)::int as orders, coalesce(sum(quantity), 0)::int as boxes from order_lines where product_id = ${productId}`);
  return { orders: Number(row!.orders), boxes: Number(row!.boxes) };
}

describe('staff setting when pre-orders open', () => {
  it('stores the instant, answers it on every product answer, and turns bad times away field by field', async () => {
    const product = await preOrderProduct('Opening Alphonso');
    const set = await setOpening(product.id, '2026-12-04T19:00:00+13:00');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Product>().preOrdersOpenAt).toBe(fridayEvening);
    expect((await shop.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).json<Product>().preOrdersOpenAt).toBe(fridayEvening);
    const listed = (await shop.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>().find((p) => p.id === product.id);
    expect(listed?.preOrdersOpenAt).toBe(fridayEvening);

    const refusals: Array<[unknown, string]> = [
      ['2026-12-04 19:00', 'Opening time must be a date and time with its time zone, like 2026-12-04T19:00:00+13:00'],
      ['2026-12-04T19:00', 'Opening time must be a date and time with its time zone, like 2026-12-04T19:00:00+13:00'],
      [1764828000000, 'Opening time must be a date and time with its time zone, like 2026-12-04T19:00:00+13:00'],
      ['2026-11-30T19:59:59Z', 'Opening time must be in the future: leave it empty to open pre-orders now'],
      ['2028-01-01T00:00:00Z', 'Opening time must be within a year'],
    ];
    for (const [value, message] of refusals) {
      const refused = await setOpening(product.id, value as string);
      expect(refused.statusCode, `${String(value)}: ${refused.body}`).toBe(400);
      expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toEqual({ preOrdersOpenAt: message });
    }
    // Nothing refused changed it.
    expect((await shop.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).json<Product>().preOrdersOpenAt).toBe(fridayEvening);

    const stocked = await testProduct(shop, { name: 'Opening Kesar', stock: 5 });
    const notPreOrder = await setOpening(stocked.id, fridayEvening);
    expect(notPreOrder.statusCode).toBe(400);
    expect(notPreOrder.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toEqual({ preOrdersOpenAt: 'Only a pre-order product can open at a set time' });

    // The editor may send the stored time back after it passed; a product that stops being a pre-order loses it.
    now = at('2026-12-05T00:00:00Z');
    try {
      const unchanged = await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { name: 'Opening Alphonso', preOrdersOpenAt: fridayEvening } });
      expect(unchanged.statusCode, unchanged.body).toBe(200);
      const stopped = await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { isPreOrder: false } });
      expect(stopped.statusCode, stopped.body).toBe(200);
      expect(stopped.json<Product>().preOrdersOpenAt).toBeNull();
    } finally {
      now = at('2026-11-30T20:00:00Z');
    }

    const created = await staff({
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Opening Created', description: 'A box opening later.', price: 60, imageUrl: '/images/products/alphonso.jpg', category: 'Premium', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-20', preOrdersOpenAt: fridayEvening },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Product>().preOrdersOpenAt).toBe(fridayEvening);
  });

  it('is cleared when a product that opened goes on to sell from stock', async () => {
    const product = await preOrderProduct('Opening Then Stock');
    expect((await setOpening(product.id, fridayEvening)).statusCode).toBe(200);
    now = at('2026-12-05T00:00:00Z');
    try {
      const sells = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/open-sales` });
      expect(sells.statusCode, sells.body).toBe(200);
      const after = (await shop.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).json<Product>();
      expect([after.isPreOrder, after.preOrdersOpenAt]).toEqual([false, null]);
    } finally {
      now = at('2026-11-30T20:00:00Z');
    }
  });

  it('only staff may set it', async () => {
    const product = await preOrderProduct('Opening Guarded');
    const shopper = await quickShopper(shop, 'opener');
    const tried = await shopper.call({ method: 'PUT', url: `/api/products/${product.id}`, payload: { preOrdersOpenAt: null } });
    expect(tried.statusCode).toBe(403);
  });
});

describe('before pre-orders open', () => {
  it('refuses cart adds by the shop\u2019s clock, offers the waitlist, and takes the add at the instant', async () => {
    const product = await preOrderProduct('Opening Dasheri');
    expect((await setOpening(product.id, fridayEvening)).statusCode).toBe(200);
    const shopper = await quickShopper(shop, 'early', { emailProven: true });
    now = at(fridayEvening) - 1;
    try {
      const early = await shopper.call({ method: 'POST', url: `/api/cart/${shopper.user.id}/items`, payload: { productId: product.id, quantity: 1 } });
      expect(early.statusCode).toBe(409);
      const message = 'Pre-orders for Opening Dasheri open Friday 4 December at 7:00 pm. Join the waitlist and we will e-mail you when they open.';
      expect(early.json()).toEqual({ message, fieldErrors: { productId: message } });
      expect((await shopper.cart()).itemCount).toBe(0);

      const joined = await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
      expect(joined.statusCode, joined.body).toBe(200);
      expect(joined.json<WaitlistJoinAnswer>().message).toBe('You are on the waitlist for Opening Dasheri. We will e-mail you when pre-orders open.');

      now = at(fridayEvening);
      const onTime = await shopper.call({ method: 'POST', url: `/api/cart/${shopper.user.id}/items`, payload: { productId: product.id, quantity: 1 } });
      expect(onTime.statusCode, onTime.body).toBe(200);
      // Open now, the waitlist is closed to new sign-ups.
      expect((await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } })).statusCode).toBe(409);
    } finally {
      now = at('2026-11-30T20:00:00Z');
    }
  });

  it('refuses orders for boxes carted before the opening was set, leaving cart, orders and mail as they were', async () => {
    const product = await preOrderProduct('Opening Carted');
    const shopper = await quickShopper(shop, 'carted');
    await shopper.add(product.id, 2);
    expect((await setOpening(product.id, fridayEvening)).statusCode).toBe(200);
    const mailBefore = (await shop.mail()).length;
    const refused = await shopper.order();
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors.cart).toBe(
      'Pre-orders for Opening Carted open Friday 4 December at 7:00 pm. Join the waitlist and we will e-mail you when they open.',
    );
    expect(await ordersOf(product.id)).toEqual({ orders: 0, boxes: 0 });
    expect((await shopper.cart()).items).toEqual([expect.objectContaining({ productId: product.id, quantity: 2 })]);
    expect(await mailSince(mailBefore)).toEqual([]);
  });

  it('takes orders sent from many connections at the opening: none before the instant, exactly the limit after', async () => {
    const limit = 20;
    const product = await preOrderProduct('Opening Rush', { preOrderLimit: limit });
    const shoppers = await Promise.all(Array.from({ length: 30 }, () => quickShopper(shop, 'rush')));
    for (const shopper of shoppers) await shopper.add(product.id, 1);
    expect((await setOpening(product.id, fridayEvening)).statusCode).toBe(200);
    now = at(fridayEvening) - 5;
    let opened = false;
    const notYet = 'Pre-orders for Opening Rush open Friday 4 December at 7:00 pm. Join the waitlist and we will e-mail you when they open.';
    const full = 'Pre-orders for Opening Rush are full.';
    const answers: Array<{ status: number; message: string; afterOpening: boolean }> = [];
    const last: string[] = [];
    try {
      const tryOrder = async (shopper: (typeof shoppers)[number], index: number) => {
        const response = await shopper.order({ deliveryDate: undefined });
        const message = response.json<{ message?: string }>().message ?? '';
        answers.push({ status: response.statusCode, message, afterOpening: opened });
        last[index] = response.statusCode === 201 ? 'placed' : message;
      };
      // Every shopper presses at once; the clock reaches the opening while their requests are in
      // flight, once a few have been answered.
      const first = Promise.all(shoppers.map(tryOrder));
      while (answers.length < 5) await new Promise((resolve) => setTimeout(resolve, 1));
      now = at(fridayEvening);
      opened = true;
      await first;
      // Whoever was told "not yet" presses again.
      await Promise.all(shoppers.map((shopper, index) => (last[index] === notYet ? tryOrder(shopper, index) : undefined)));
    } finally {
      now = at('2026-11-30T20:00:00Z');
    }
    expect(answers.filter((answer) => !answer.afterOpening).length, 'some answered before the opening').toBeGreaterThan(0);
    // Answered before the clock reached the opening: refused as not open yet, every one.
    expect(answers.filter((answer) => !answer.afterOpening && answer.message !== notYet)).toEqual([]);
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(await ordersOf(product.id)).toEqual({ orders: limit, boxes: limit });
    expect(last.filter((outcome) => outcome === 'placed')).toHaveLength(limit);
    expect(last.filter((outcome) => outcome === full)).toHaveLength(shoppers.length - limit);
  });
});

describe('the waitlist of a product that opens later', () => {
  async function subscribers(productId: number, count: number) {
    const joined: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const shopper = await quickShopper(shop, 'opensub', { emailProven: true });
      const answer = await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId } });
      expect(answer.statusCode, answer.body).toBe(200);
      joined.push(shopper.user.email);
    }
    return joined;
  }

  it('hears each new time once, then one "open" mail each, in the order they joined, when the clock reaches it', async () => {
    const product = await preOrderProduct('Opening Kesar Gold');
    expect((await setOpening(product.id, fridayEvening)).statusCode).toBe(200);
    const joined = await subscribers(product.id, 3);
    // A visitor who never confirmed gave no consent: nothing for them.
    const visitor = await shop.app.inject({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id, email: 'unconfirmed@example.nz' }, remoteAddress: '10.77.0.1' });
    expect(visitor.statusCode).toBe(200);
    let seen = (await shop.mail()).length;
    // They saw the time when they joined: a sweep tells them nothing new.
    await shop.app.services.waitlist.notifyAvailable();
    expect(await mailSince(seen)).toEqual([]);

    // Staff move the opening a day later; the sweep the change starts mails the new time.
    const saturday = '2026-12-05T06:00:00.000Z';
    expect((await setOpening(product.id, saturday)).statusCode).toBe(200);
    expect(await mailSince(seen), 'not with the change itself').toEqual([]);
    await Promise.all([shop.app.services.waitlist.notifyAvailable(), shop.app.services.waitlist.notifyAvailable()]);
    const moved = await mailSince(seen);
    expect(moved.map((mail) => mail.to)).toEqual(joined);
    expect(new Set(moved.map((mail) => mail.subject))).toEqual(new Set(['Pre-orders for Opening Kesar Gold open Saturday 5 December at 7:00 pm']));
    expect(moved[0]!.text).toContain('Pre-orders now open Saturday 5 December at 7:00 pm, New Zealand time.');
    expect(moved[0]!.text).toMatch(/\/api\/waitlist\/manage\?token=/);
    seen += moved.length;
    // Saving the same time again, or another field, tells nobody anything.
    expect((await setOpening(product.id, saturday)).statusCode).toBe(200);
    expect((await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { boxInfo: 'About 12 fruit' } })).statusCode).toBe(200);
    await shop.app.services.waitlist.notifyAvailable();
    expect(await mailSince(seen)).toEqual([]);

    // Before the opening a sweep mails nobody.
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(0);
    now = at(saturday);
    try {
      // Two processes' sweeps at the opening: each subscriber is mailed once.
      await Promise.all([shop.app.services.waitlist.notifyAvailable(), shop.app.services.waitlist.notifyAvailable()]);
      const ofThis = (mails: MailMessage[]) => mails.filter((mail) => mail.subject.includes('Opening Kesar Gold'));
      const open = ofThis(await mailSince(seen));
      expect(open.map((mail) => mail.to)).toEqual(joined);
      expect(new Set(open.map((mail) => mail.subject))).toEqual(new Set(['Pre-orders for Opening Kesar Gold are open']));
      seen = (await shop.mail()).length;
      await shop.app.services.waitlist.notifyAvailable();
      expect(ofThis(await mailSince(seen))).toEqual([]);

      // Staff postpone it after it opened: those told "open" hear the new time, and "open" again at it.
      const sunday = '2026-12-06T06:00:00.000Z';
      expect((await setOpening(product.id, sunday)).statusCode).toBe(200);
      await shop.app.services.waitlist.notifyAvailable();
      const postponed = ofThis(await mailSince(seen));
      expect(postponed.map((mail) => [mail.to, mail.subject])).toEqual(joined.map((to) => [to, 'Pre-orders for Opening Kesar Gold open Sunday 6 December at 7:00 pm']));
      seen = (await shop.mail()).length;
      now = at(sunday);
      await shop.app.services.waitlist.notifyAvailable();
      expect(ofThis(await mailSince(seen)).map((mail) => [mail.to, mail.subject])).toEqual(joined.map((to) => [to, 'Pre-orders for Opening Kesar Gold are open']));
    } finally {
      now = at('2026-11-30T20:00:00Z');
    }
  });

  it('hears at once when staff open pre-orders now', async () => {
    const product = await preOrderProduct('Opening Now Pairi');
    expect((await setOpening(product.id, fridayEvening)).statusCode).toBe(200);
    const joined = await subscribers(product.id, 2);
    const seen = (await shop.mail()).length;
    const opened = await setOpening(product.id, null);
    expect(opened.statusCode).toBe(200);
    expect(opened.json<Product>().preOrdersOpenAt).toBeNull();
    // Opening now is the sweep's news, not a new time.
    expect(await mailSince(seen)).toEqual([]);
    await shop.app.services.waitlist.notifyAvailable();
    const open = (await mailSince(seen)).filter((mail) => mail.subject.includes('Opening Now Pairi'));
    expect(open.map((mail) => [mail.to, mail.subject])).toEqual(joined.map((to) => [to, 'Pre-orders for Opening Now Pairi are open']));
  });
});

describe('the shop\u2019s clock', () => {
  it('is answered for the browser\u2019s countdown', async () => {
    const answer = await shop.app.inject({ method: 'GET', url: '/api/time' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(answer.json()).toEqual({ now: new Date(now).toISOString() });
  });
});
