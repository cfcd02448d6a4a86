import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryRow } from '../../../contracts/inventory';
import type { PlacedOrder } from '../../../contracts/order';
import type { DashboardView } from '../../../contracts/reports';
import { formatDay } from '../../../contracts/dates';
import { type AllocationResult, expectedDispatch, type PreOrderBook } from '../../../contracts/pre-order';
import { orderLines, orders, products, refunds, stockMovements } from '../../db/schema';
import { shopConsistency } from '../../faults/consistency';
import { blipAfterCommit } from '../../testing/blips';
import { answerWhileProductHeld, newCheckoutKey, quickShopper, stockOf, testProduct } from '../../testing/order-helpers';
import { createTestShop, signInAdmin, type StaffCall, as, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => {
  shop = await createTestShop();
  staff = as(shop.app, (await signInAdmin(shop)).cookie);
});
afterAll(async () => shop?.close());

const comingSoon = (values: { name?: string; preOrderLimit?: number } = {}) =>
  testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-06-10', ...values });

/** A shopper's pre-order of `boxes`, placed now (bank transfer, so it starts unpaid). */
async function preOrder(productId: number, boxes: number, options: { paid?: boolean } = {}) {
  const shopper = await quickShopper(shop, 'season');
  await shopper.add(productId, boxes);
  const response = await shopper.order();
  if (response.statusCode !== 201) throw new Error(`pre-order failed: ${response.body}`);
  const { order } = response.json<PlacedOrder>();
  if (options.paid) await markStatus(order.number, 'paid', 200);
  return { shopper, number: order.number, email: shopper.user.email };
}

async function markStatus(number: string, status: string, expected: number) {
  const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status } });
  expect(response.statusCode, response.body).toBe(expected);
  return response;
}

const shipment = (productId: number, payload: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/inventory/${productId}/shipments`, payload });
const book = async (productId: number) => (await staff({ method: 'GET', url: `/api/admin/inventory/${productId}/pre-orders` })).json<PreOrderBook>();
const orderOf = async (shopper: Awaited<ReturnType<typeof preOrder>>) => (await shopper.shopper.call({ method: 'GET', url: `/api/orders/${shopper.number}` })).json<PlacedOrder['order']>();

async function movedStock(productId: number): Promise<number> {
  const [row] = await shop.database.db.select({ sum: sql<number>`coalesce(sum(${stockMovements.change}), 0)::int` }).from(stockMovements).where(eq(stockMovements.productId, productId));
  return Number(row!.sum);
}

describe('recording a shipment for a pre-order product', () => {
  it('gives the boxes to paid pre-orders before unpaid ones, oldest first, a whole line or none', async () => {
    const product = await comingSoon({ name: 'Shipment Dasheri' });
    const unpaidFirst = await preOrder(product.id, 2);
    const paidBig = await preOrder(product.id, 3, { paid: true });
    const paidSmall = await preOrder(product.id, 1, { paid: true });
    const paidLast = await preOrder(product.id, 2, { paid: true });
    const sentBefore = (await shop.mail()).length;

    // 5 boxes: paidBig (3) and paidSmall (1) fit; paidLast (2) does not fit in the 1 left, and
    // neither does the unpaid line (2): both wait, and the 1 box stays as stock.
    const response = await shipment(product.id, { boxes: 5, arrivalDate: '2026-11-02', note: 'Air freight via Auckland' });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json<AllocationResult>();
    expect(result.allocated).toEqual([
      { orderNumber: paidBig.number, boxes: 3 },
      { orderNumber: paidSmall.number, boxes: 1 },
    ]);
    expect(result.waiting).toEqual({ lines: 2, boxes: 4 });
    expect(result.stock).toBe(1);
    expect(result.shipment).toMatchObject({ boxes: 5, arrivalDate: '2026-11-02', note: 'Air freight via Auckland', allocatedBoxes: 4 });
    // Recorded after it arrived: the working day after today (contracts/pre-order.test.ts checks the days).
    const dispatch = expectedDispatch('2026-11-02', Date.now());
    expect(result.expectedDispatch).toBe(dispatch);

    expect(await stockOf(shop, product.id)).toBe(1);
    expect(await movedStock(product.id)).toBe(1);

    const served = await orderOf(paidBig);
    expect(served.lines[0]).toMatchObject({ isPreOrder: true, allocated: true });
    expect(served.waitingForStock).toBe(false);
    // Nothing else to wait for: it has its delivery day now, dispatched no earlier than expected, its boxes booked.
    expect(served.deliveryDate).not.toBeNull();
    expect(served.dispatchDate! >= dispatch).toBe(true);
    expect(served.events.at(-1)!.note).toBe(
      `3 boxes of Shipment Dasheri set aside from the shipment of 2 November 2026; delivery ${formatDay(served.deliveryDate!)}, dispatched ${formatDay(served.dispatchDate!)}`,
    );
    const [held] = await shop.database.db.select({ boxes: orders.deliveryBoxes }).from(orders).where(eq(orders.number, paidBig.number));
    expect(held!.boxes).toBe(3);
    const waiting = await orderOf(unpaidFirst);
    expect(waiting.waitingForStock).toBe(true);
    expect(waiting.lines[0]!.allocated).toBe(false);

    const mail = (await shop.mail()).slice(sentBefore);
    expect(mail.map((message) => message.to).sort()).toEqual([paidBig.email, paidSmall.email].sort());
    const bigMail = mail.find((message) => message.to === paidBig.email)!;
    expect(bigMail.subject).toBe(`Your pre-order ${paidBig.number}: Shipment Dasheri has arrived`);
    expect(bigMail.text).toContain('We have set aside 3 boxes of Shipment Dasheri');
    expect(bigMail.text).toContain(`It leaves us on ${formatDay(served.dispatchDate!)} and is due with you on ${formatDay(served.deliveryDate!)}.`);
    expect(bigMail.text).toContain(`Delivery: ${formatDay(served.deliveryDate!)}`);

    const seen = await book(product.id);
    expect(seen).toMatchObject({ preOrdered: 8, allocated: 4, waiting: 4, stock: 1 });
    expect(seen.lines.map((line) => [line.orderNumber, line.allocatedAt !== null])).toEqual([
      [paidBig.number, true],
      [paidSmall.number, true],
      [paidLast.number, false],
      [unpaidFirst.number, false],
    ]);

    const inventory = (await staff({ method: 'GET', url: '/api/admin/inventory' })).json<InventoryRow[]>();
    expect(inventory.find((row) => row.productId === product.id)).toMatchObject({ stock: 1, preOrdered: 8, allocated: 4, waiting: 4 });
    const dashboard = (await staff({ method: 'GET', url: '/api/admin/dashboard' })).json<DashboardView>();
    expect(dashboard.preOrderDemand.find((row) => row.productId === product.id)).toMatchObject({ preOrdered: 8, allocated: 4, waiting: 4 });

    // The next shipment takes the leftover box too: paidLast's 2 first, then the unpaid 2.
    const next = (await shipment(product.id, { boxes: 3, arrivalDate: '2026-11-07' })).json<AllocationResult>();
    expect(next.allocated).toEqual([
      { orderNumber: paidLast.number, boxes: 2 },
      { orderNumber: unpaidFirst.number, boxes: 2 },
    ]);
    expect(next.stock).toBe(0);
    expect(next.expectedDispatch).toBe(expectedDispatch('2026-11-07', Date.now()));
    const unpaidMail = (await shop.mail()).find((message) => message.to === unpaidFirst.email && message.subject.includes('has arrived'))!;
    expect(unpaidMail.text).toContain('Your order is not paid yet');
    expect(await movedStock(product.id)).toBe(0);
    const state = await shopConsistency(shop.database.db);
    expect(state.stockDrift).toEqual([]);
    expect(state.halfOrders).toEqual([]);
    expect(state.capacityDrift).toEqual([]);
    expect((await orderOf(unpaidFirst)).deliveryDate).not.toBeNull();
  });

  it('refuses bad input by field and leaves everything as it was', async () => {
    const product = await comingSoon();
    await preOrder(product.id, 1, { paid: true });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ boxes: 0, arrivalDate: '2026-11-02' }, 'boxes', 'Boxes received must be at least 1'],
      [{ boxes: 2.5, arrivalDate: '2026-11-02' }, 'boxes', 'Boxes received must be a whole number'],
      [{ boxes: 2, arrivalDate: '2027-02-30' }, 'arrivalDate', 'Arrival date must be a real date'],
      [{ boxes: 2 }, 'arrivalDate', 'Arrival date is required'],
      [{ boxes: 2, arrivalDate: '2026-11-02', note: 'x'.repeat(301) }, 'note', 'Note must be at most 300 characters'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await shipment(product.id, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors[field]).toBe(message);
    }
    expect((await book(product.id)).allocated).toBe(0);
    expect(await stockOf(shop, product.id)).toBe(0);
    expect(await movedStock(product.id)).toBe(0);
  });

  it('is staff only, and refuses a product that is not sold as a pre-order', async () => {
    const product = await comingSoon();
    const shopper = await quickShopper(shop);
    expect((await shopper.call({ method: 'POST', url: `/api/admin/inventory/${product.id}/shipments`, payload: { boxes: 2, arrivalDate: '2026-11-02' } })).statusCode).toBe(403);
    expect((await shop.app.inject({ method: 'POST', url: `/api/admin/inventory/${product.id}/shipments`, payload: { boxes: 2, arrivalDate: '2026-11-02' } })).statusCode).toBe(401);
    const inStock = await testProduct(shop, { stock: 0 });
    const refused = await shipment(inStock.id, { boxes: 2, arrivalDate: '2026-11-02' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('is not sold as a pre-order');
    expect((await shipment(999_999, { boxes: 2, arrivalDate: '2026-11-02' })).statusCode).toBe(404);
  });

  it('keeps a waiting order from being packed, and returns allocated boxes when an order is cancelled', async () => {
    const product = await comingSoon();
    const waiting = await preOrder(product.id, 2, { paid: true });
    const refused = await markStatus(waiting.number, 'packed', 409);
    expect(refused.json().message).toContain('still waiting for its pre-order boxes');

    await shipment(product.id, { boxes: 2, arrivalDate: '2026-11-02' });
    await markStatus(waiting.number, 'packed', 200);
    expect(await stockOf(shop, product.id)).toBe(0);
    await markStatus(waiting.number, 'cancelled', 200);
    // The boxes it held are back, ready for the next pre-order.
    expect(await stockOf(shop, product.id)).toBe(2);
    expect(await movedStock(product.id)).toBe(2);
    const next = await preOrder(product.id, 2, { paid: true });
    const allocated = (await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/pre-orders/allocate` })).json<AllocationResult>();
    expect(allocated.allocated).toEqual([{ orderNumber: next.number, boxes: 2 }]);
    expect(allocated.shipment).toBeNull();
  });
});

describe('a short shipment', () => {
  it('moves the expected date of every waiting pre-order and e-mails each shopper once', async () => {
    const product = await comingSoon({ name: 'Late Langra' });
    const served = await preOrder(product.id, 2, { paid: true });
    const first = await preOrder(product.id, 3, { paid: true });
    const second = await preOrder(product.id, 1);
    await shipment(product.id, { boxes: 2, arrivalDate: '2026-11-02' });
    const sentBefore = (await shop.mail()).length;

    const response = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/pre-orders/expected-date`, payload: { expectedAvailabilityDate: '2027-07-01', note: 'The second flight was cancelled.' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ notified: 2 });
    const mail = (await shop.mail()).slice(sentBefore);
    expect(mail.map((message) => message.to).sort()).toEqual([first.email, second.email].sort());
    expect(mail[0]!.subject).toMatch(/^Your pre-order MS-\d+: new date for Late Langra$/);
    expect(mail[0]!.text).toContain('We now expect it on 1 July 2027.');
    expect(mail[0]!.text).toContain('The second flight was cancelled.');
    expect((await orderOf(first)).lines[0]!.expectedAvailabilityDate).toBe('2027-07-01');
    expect((await orderOf(served)).lines[0]!.expectedAvailabilityDate).toBe('2027-06-10');
    const [stored] = await shop.database.db.select({ date: products.expectedAvailabilityDate }).from(products).where(eq(products.id, product.id));
    expect(stored!.date).toBe('2027-07-01');

    const bad = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/pre-orders/expected-date`, payload: { expectedAvailabilityDate: 'soon' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors.expectedAvailabilityDate).toBe('Expected date must be a date (YYYY-MM-DD)');
  });

  it('answers the cancels it made even when the database blips as its summary is written', async () => {
    const product = await comingSoon({ name: 'Blip Chausa' });
    const paid = await preOrder(product.id, 1, { paid: true });
    const unpaid = await preOrder(product.id, 1);
    const blip = blipAfterCommit(shop, 'insert');
    let response;
    try {
      response = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/pre-orders/cancel-waiting`, payload: { reason: 'the crop failed' } });
    } finally {
      blip.restore();
    }
    expect(blip.fired()).toBe(true);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ cancelled: [unpaid.number], refunded: [paid.number], skipped: [] });
    expect((await orderOf(unpaid)).status).toBe('cancelled');
  });

  it('cancels the waiting pre-orders: the unpaid cancelled, the paid refunded in full with a refund record', async () => {
    const product = await comingSoon({ name: 'Short Chausa' });
    const served = await preOrder(product.id, 1, { paid: true });
    const paid = await preOrder(product.id, 2, { paid: true });
    const unpaid = await preOrder(product.id, 2);
    await shipment(product.id, { boxes: 1, arrivalDate: '2026-11-02' });

    const refusedOpen = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/open-sales` });
    expect(refusedOpen.statusCode).toBe(409);
    expect(refusedOpen.json().message).toBe('4 pre-ordered boxes still wait for Short Chausa: allocate them, move their date or cancel them first.');

    // The product editor cannot turn it into a normal product while pre-orders wait either.
    const edited = await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { isPreOrder: false } });
    expect(edited.statusCode).toBe(409);
    expect(edited.json().fieldErrors.isPreOrder).toBe('Pre-orders still wait for Short Chausa: serve, move or cancel them on Inventory → Pre-orders first');

    const empty = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/pre-orders/cancel-waiting`, payload: { reason: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors.reason).toBe('Reason is required');

    const response = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/pre-orders/cancel-waiting`, payload: { reason: 'the grower lost the second harvest to rain' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ cancelled: [unpaid.number], refunded: [paid.number], skipped: [] });
    expect((await orderOf(unpaid)).status).toBe('cancelled');
    const refundedOrder = await orderOf(paid);
    expect(refundedOrder.status).toBe('refunded');
    const [paidRow] = await shop.database.db.select().from(orders).where(eq(orders.number, paid.number));
    const records = await shop.database.db.select().from(refunds).where(eq(refunds.orderId, paidRow!.id));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ amountCents: paidRow!.totalCents, reason: 'Short Chausa could not be supplied: the grower lost the second harvest to rain' });
    expect((await orderOf(served)).status).toBe('paid');

    // Run again: nothing is waiting, nothing changes.
    const again = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/pre-orders/cancel-waiting`, payload: { reason: 'again' } });
    expect(again.json()).toEqual({ cancelled: [], refunded: [], skipped: [] });
    expect(await shop.database.db.select().from(refunds).where(eq(refunds.orderId, paidRow!.id))).toHaveLength(1);

    // Every pre-order is served or cancelled: the product can sell from stock now.
    await shipment(product.id, { boxes: 6, arrivalDate: '2026-11-10' });
    const opened = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/open-sales` });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ stock: 6 });
    const buyer = await quickShopper(shop);
    await buyer.add(product.id, 2);
    const bought = await buyer.order();
    expect(bought.json<PlacedOrder>().order.lines[0]!.isPreOrder).toBe(false);
    expect(await stockOf(shop, product.id)).toBe(4);
    expect(await movedStock(product.id)).toBe(4);
  });
});

describe('racing', () => {
  it('allocates a shipment while pre-orders are placed and cancelled: nothing twice, nothing lost', async () => {
    const product = await comingSoon({ name: 'Race Kesar' });
    const early = await Promise.all(Array.from({ length: 12 }, (_, index) => preOrder(product.id, 1 + (index % 3), { paid: index % 2 === 0 })));
    const latecomers = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const shopper = await quickShopper(shop, 'late');
        await shopper.add(product.id, 1);
        return shopper;
      }),
    );
    const cancelling = early.slice(0, 6);
    const [shipped, ...others] = await Promise.all([
      shipment(product.id, { boxes: 15, arrivalDate: '2026-11-02' }),
      ...latecomers.map((shopper) => shopper.order()),
      ...cancelling.map((order) => order.shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` })),
    ]);
    expect(shipped!.statusCode, shipped!.body).toBe(201);
    for (const response of others.slice(0, latecomers.length)) expect(response.statusCode, response.body).toBe(201);
    // A shopper's cancel is for unpaid orders: 3 of the 6 were paid and stay.
    expect(others.slice(latecomers.length).map((response) => response.statusCode).sort()).toEqual([200, 200, 200, 409, 409, 409]);

    const lines = await shop.database.db
      .select({ id: orderLines.id, quantity: orderLines.quantity, allocatedAt: orderLines.allocatedAt, status: orders.status, orderId: orders.id })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(eq(orderLines.productId, product.id));
    const allocations = await shop.database.db
      .select({ orderId: stockMovements.orderId, change: stockMovements.change, reason: stockMovements.reason })
      .from(stockMovements)
      .where(and(eq(stockMovements.productId, product.id)));
    // Each allocated line has exactly one allocation movement of its boxes.
    for (const line of lines.filter((row) => row.allocatedAt !== null)) {
      expect(allocations.filter((movement) => movement.orderId === line.orderId && movement.reason === 'allocation').map((movement) => movement.change)).toEqual([-line.quantity]);
    }
    // Boxes held by cancelled orders came back; the rest is stock.
    const held = lines.filter((row) => row.allocatedAt !== null && row.status !== 'cancelled').reduce((sum, row) => sum + row.quantity, 0);
    const stock = await stockOf(shop, product.id);
    expect(held + stock).toBe(15);
    expect(await movedStock(product.id)).toBe(stock);
    const state = await shopConsistency(shop.database.db);
    expect(state.stockDrift).toEqual([]);
  });

  it('records a shipment once when its submit is sent twice at the same moment (one key)', async () => {
    const product = await comingSoon();
    // Placed one after another, so their order in the queue is known (the race is the submit below).
    const waiting = [];
    for (let index = 0; index < 3; index += 1) waiting.push(await preOrder(product.id, 2, { paid: true }));
    const payload = { boxes: 4, arrivalDate: '2026-11-02', idempotencyKey: 'shipment-form-0001' };
    const [first, second] = await Promise.all([shipment(product.id, payload), shipment(product.id, payload)]);
    expect([first!.statusCode, second!.statusCode]).toEqual([201, 201]);
    expect(second!.json()).toEqual(first!.json());
    expect(first!.json<AllocationResult>().allocated.map((entry) => entry.orderNumber)).toEqual(waiting.slice(0, 2).map((order) => order.number));
    expect((await book(product.id)).shipments).toHaveLength(1);
    expect(await stockOf(shop, product.id)).toBe(0);
    expect(await movedStock(product.id)).toBe(0);
    // Another form (another key) is another shipment.
    const third = (await shipment(product.id, { ...payload, idempotencyKey: 'shipment-form-0002' })).json<AllocationResult>();
    expect(third.allocated.map((entry) => entry.orderNumber)).toEqual([waiting[2]!.number]);
  });

  it('two staff recording the same shipment at once allocate each line once', async () => {
    const product = await comingSoon();
    const orders = await Promise.all(Array.from({ length: 6 }, () => preOrder(product.id, 2, { paid: true })));
    const [first, second] = await Promise.all([shipment(product.id, { boxes: 6, arrivalDate: '2026-11-02' }), shipment(product.id, { boxes: 6, arrivalDate: '2026-11-02' })]);
    expect([first!.statusCode, second!.statusCode]).toEqual([201, 201]);
    const given = [...first!.json<AllocationResult>().allocated, ...second!.json<AllocationResult>().allocated].map((entry) => entry.orderNumber).sort();
    expect(given).toEqual(orders.map((order) => order.number).sort());
    expect(await stockOf(shop, product.id)).toBe(0);
    expect(await movedStock(product.id)).toBe(0);
  });
});

describe('a pre-order that is full', () => {
  it('tells a late shopper how many boxes are left, and answers a retried submit of the order that filled it with that order', async () => {
    const product = await comingSoon({ name: 'Full Langra', preOrderLimit: 3 });
    const filler = await quickShopper(shop, 'filler');
    await filler.add(product.id, 2);
    const key = newCheckoutKey();
    const placed = await filler.order({ idempotencyKey: key });
    expect(placed.statusCode, placed.body).toBe(201);

    const late = await quickShopper(shop, 'late');
    await late.add(product.id, 2);
    const short = await late.order();
    expect(short.statusCode).toBe(409);
    expect(short.json<{ fieldErrors: Record<string, string> }>().fieldErrors.cart).toBe('Only 1 pre-order boxes of Full Langra are left. Please lower the quantity in your cart.');
    const last = await quickShopper(shop, 'last');
    await last.add(product.id, 1);
    expect((await last.order()).statusCode).toBe(201);
    const full = await late.order();
    expect(full.statusCode).toBe(409);
    expect(full.json<{ message: string }>().message).toBe('Pre-orders for Full Langra are full.');
    expect((await late.cart()).items).toEqual([expect.objectContaining({ productId: product.id, quantity: 2 })]);

    // The filler's checkout sends its submit again (a lost answer): the same order, not "full".
    await filler.add(product.id, 2);
    const again = await filler.order({ idempotencyKey: key });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<PlacedOrder>().order.number).toBe(placed.json<PlacedOrder>().order.number);
    const [row] = await shop.database.db.select({ boxes: sql<number>`sum(${orderLines.quantity})::int` }).from(orderLines).where(eq(orderLines.productId, product.id));
    expect(Number(row!.boxes)).toBe(3);
  });

  /**
   * Once a variety is full, a late shopper is answered from one read, without queueing behind the
   * placements that hold the product's row. Only PostgreSQL runs two transactions at once, so a
   * second connection holds the row there.
   */
  it.runIf(process.env.DATABASE_URL)('answers a late shopper while another placement holds the variety', async () => {
    const product = await comingSoon({ name: 'Held Chausa', preOrderLimit: 1 });
    await preOrder(product.id, 1);
    const late = await quickShopper(shop, 'held');
    await late.add(product.id, 1);
    const answer = await answerWhileProductHeld(shop, product.id, () => late.order());
    expect(answer === 'waited' ? answer : answer.statusCode).toBe(409);
  });

  it('answers for the cart\'s lines in the order the placement claims them', async () => {
    const shortFirst = await testProduct(shop, { name: 'Short Before Full', stock: 1 });
    const notOpenFirst = await comingSoon({ name: 'Later Before Full' });
    const full = await comingSoon({ name: 'Full Between', preOrderLimit: 1 });
    const shortAfter = await testProduct(shop, { name: 'Short After Full', stock: 1 });
    await preOrder(full.id, 1);
    const refusal = async (lines: number[]) => {
      const shopper = await quickShopper(shop, 'ordered');
      for (const id of lines) await shopper.add(id, 1);
      return shopper;
    };
    const message = async (shopper: Awaited<ReturnType<typeof refusal>>) => {
      const answer = await shopper.order();
      expect(answer.statusCode).toBe(409);
      return answer.json<{ message: string }>().message;
    };
    const stockGone = (id: number) => shop.database.db.update(products).set({ stock: 0 }).where(eq(products.id, id));

    // A line short of stock before the full one: the placement names it first.
    const first = await refusal([shortFirst.id, full.id]);
    const second = await refusal([full.id, shortAfter.id]);
    const third = await refusal([notOpenFirst.id, full.id]);
    await stockGone(shortFirst.id);
    await stockGone(shortAfter.id);
    expect(await message(first)).toBe('Sorry, Short Before Full has just sold out (0 available). Please remove it from your cart.');
    // After it, the full line answers.
    expect(await message(second)).toBe('Pre-orders for Full Between are full.');
    // A pre-order before the full one that is not open yet.
    const opening = await staff({ method: 'PUT', url: `/api/products/${notOpenFirst.id}`, payload: { preOrdersOpenAt: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString() } });
    expect(opening.statusCode, opening.body).toBe(200);
    expect(await message(third)).toMatch(/^Pre-orders for Later Before Full open /);
    // A pickup is the submit's own fault here (this shop offers none): the placement says so.
    const collector = await refusal([full.id]);
    const pickup = await collector.order({ fulfilment: 'pickup', pickupDate: '2027-03-04', shipping: undefined });
    expect(pickup.statusCode).toBe(400);
    expect(pickup.json<{ fieldErrors: Record<string, string> }>().fieldErrors.fulfilment).toBe('Pickup is not offered at the moment. Please choose delivery.');
  });

  it('leaves the answer to the placement when the cart holds a product taken off sale', async () => {
    const product = await comingSoon({ name: 'Hidden Beside Full', preOrderLimit: 1 });
    await preOrder(product.id, 1);
    const gone = await testProduct(shop, { name: 'Taken Off Sale', stock: 5 });
    const late = await quickShopper(shop, 'hidden');
    await late.add(gone.id, 1);
    await late.add(product.id, 1);
    expect((await staff({ method: 'PUT', url: `/api/products/${gone.id}`, payload: { isHidden: true } })).statusCode).toBe(200);
    const answer = await late.order();
    expect(answer.statusCode).toBe(409);
    expect(answer.json<{ message: string }>().message).toBe('Taken Off Sale is no longer available. Please remove it from your cart.');
  });
});
