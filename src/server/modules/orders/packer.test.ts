import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail, AdminOrderPage, BulkStatusResult } from '../../../contracts/admin-orders';
import type { OrderView, PlacedOrder } from '../../../contracts/order';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

/** A bank-transfer order of one in-stock box, or of one pre-order box too. */
async function placed(options: { preOrder?: boolean } = {}) {
  const shopper = await quickShopper(shop, 'packer');
  await shopper.add((await testProduct(shop, { stock: 20 })).id, 1);
  if (options.preOrder) await shopper.add((await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-02-10' })).id, 1);
  const response = await shopper.order();
  expect(response.statusCode, response.body).toBe(201);
  return { shopper, order: (response.json() as PlacedOrder).order };
}

const list = async (query: string) => (await staff({ method: 'GET', url: `/api/admin/orders?pageSize=100&${query}` })).json<AdminOrderPage>();

describe('orders as a packer works', () => {
  it('lists the delivery day and pre-orders, and filters by them', async () => {
    const inStock = await placed();
    const waiting = await placed({ preOrder: true });
    const all = await list('');
    const rowOf = (number: string) => all.orders.find((row) => row.number === number);
    expect(rowOf(inStock.order.number)).toMatchObject({ deliveryDate: inStock.order.deliveryDate, preOrder: false, waitingForStock: false });
    expect(rowOf(waiting.order.number)).toMatchObject({ preOrder: true, waitingForStock: true });

    const numbers = (page: AdminOrderPage) => page.orders.map((row) => row.number);
    expect(numbers(await list('preOrder=waiting'))).toContain(waiting.order.number);
    expect(numbers(await list('preOrder=waiting'))).not.toContain(inStock.order.number);
    expect(numbers(await list('preOrder=no'))).toContain(inStock.order.number);
    expect(numbers(await list('preOrder=no'))).not.toContain(waiting.order.number);
    const day = inStock.order.deliveryDate!;
    const onDay = await list(`day=${day}`);
    expect(onDay.orders.length).toBeGreaterThan(0);
    expect(onDay.orders.every((row) => row.deliveryDate === day)).toBe(true);
    expect(numbers(await list('fulfilment=pickup'))).not.toContain(inStock.order.number);

    const bad = await staff({ method: 'GET', url: '/api/admin/orders?preOrder=maybe&day=tomorrow' });
    expect(bad.statusCode).toBe(400);
  });

  it('marks many orders paid at once, each on its own, and says which could not be', async () => {
    const first = await placed();
    const second = await placed();
    const waiting = await placed({ preOrder: true });
    const paid = await staff({ method: 'POST', url: '/api/admin/orders/bulk-status', payload: { status: 'paid', numbers: [first.order.number, second.order.number, waiting.order.number] } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<BulkStatusResult>().results).toEqual([
      { number: first.order.number, ok: true },
      { number: second.order.number, ok: true },
      { number: waiting.order.number, ok: true },
    ]);
    // Each is e-mailed as from its own page.
    const mails = await shop.mail();
    for (const { order } of [first, second, waiting]) expect(mails.filter((m) => m.subject === `Payment received for order ${order.number}`)).toHaveLength(1);

    const packed = await staff({ method: 'POST', url: '/api/admin/orders/bulk-status', payload: { status: 'packed', numbers: [first.order.number, waiting.order.number, 'MS-99999999'] } });
    expect(packed.statusCode, packed.body).toBe(200);
    const results = packed.json<BulkStatusResult>().results;
    expect(results[0]).toEqual({ number: first.order.number, ok: true });
    expect(results[1]).toMatchObject({ number: waiting.order.number, ok: false });
    expect((results[1] as { message: string }).message).toContain('still waiting for its pre-order boxes');
    expect(results[2]).toEqual({ number: 'MS-99999999', ok: false, message: 'Order not found' });
    const detail = async (number: string) => (await staff({ method: 'GET', url: `/api/admin/orders/${number}` })).json<AdminOrderDetail>();
    expect((await detail(first.order.number)).status).toBe('packed');
    expect((await detail(second.order.number)).status).toBe('paid');
    expect((await detail(waiting.order.number)).status).toBe('paid');

    for (const payload of [{ status: 'shipped', numbers: [first.order.number] }, { status: 'paid', numbers: [] }, { status: 'paid', numbers: [first.order.number, first.order.number] }]) {
      expect((await staff({ method: 'POST', url: '/api/admin/orders/bulk-status', payload })).statusCode).toBe(400);
    }
    const { shopper } = await placed();
    expect((await shopper.call({ method: 'POST', url: '/api/admin/orders/bulk-status', payload: { status: 'paid', numbers: [first.order.number] } })).statusCode).toBe(403);
  });

  it('keeps internal notes for staff, never in the shopper’s view', async () => {
    const { shopper, order } = await placed();
    const noted = await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/notes`, payload: { text: 'Rang: leave the boxes by the side gate.' } });
    expect(noted.statusCode, noted.body).toBe(201);
    expect(noted.json<AdminOrderDetail>().notes).toEqual([expect.objectContaining({ text: 'Rang: leave the boxes by the side gate.', author: 'Shop Admin' })]);
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/notes`, payload: { text: '   ' } })).json().fieldErrors).toEqual({ text: 'Write the note' });
    const seen = await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` });
    expect(seen.body).not.toContain('side gate');
    expect((seen.json() as OrderView & { notes?: unknown }).notes).toBeUndefined();
    expect((await shopper.call({ method: 'POST', url: `/api/admin/orders/${order.number}/notes`, payload: { text: 'mine' } })).statusCode).toBe(403);
  });

  it('resends the confirmation e-mail, three times an hour at most', async () => {
    const { shopper, order } = await placed();
    const confirmations = async () => (await shop.mail()).filter((m) => m.to === shopper.user.email && m.subject.startsWith(`Your order ${order.number} `));
    const before = (await confirmations()).length;
    const answers = await Promise.all([1, 2, 3, 4].map(() => staff({ method: 'POST', url: `/api/admin/orders/${order.number}/resend-email` })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 429]);
    expect(answers.find((answer) => answer.statusCode === 200)!.json()).toMatchObject({ to: shopper.user.email });
    expect((await confirmations()).length - before).toBe(3);
  });
});
