import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail } from '../../../contracts/admin-orders';
import type { BatchView, ExpiringBatch } from '../../../contracts/batches';
import type { DispatchDay } from '../../../contracts/dispatch';
import { nzToday } from '../../../contracts/dates';
import type { PlacedOrder } from '../../../contracts/order';
import { queryRows } from '../../db/client';
import { orderLines, orders, stockMovements } from '../../db/schema';
import { shopConsistency } from '../../faults/consistency';
import { quickShopper, stockOf, testProduct } from '../../testing/order-helpers';
import { as, createTestShop, signInAdmin, type StaffCall, type TestShop } from '../../testing/test-app';

// The shop's clock: Tuesday 1 December 2026 in New Zealand, so "expiring soon" holds on any day.
const now = Date.parse('2026-11-30T21:00:00Z');
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => {
  shop = await createTestShop({}, { clock: () => new Date(now) });
  staff = as(shop.app, (await signInAdmin(shop)).cookie);
});
afterAll(async () => shop?.close());

const addBatch = (productId: number, payload: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/inventory/${productId}/batches`, payload });
const batchesOf = async (productId: number) => (await staff({ method: 'GET', url: `/api/admin/inventory/${productId}/batches` })).json<BatchView[]>();
const setStatus = async (number: string, status: string) => {
  const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status } });
  expect(response.statusCode, response.body).toBe(200);
};

/** A product with no stock yet, so every box in it came in a batch of the test's own. */
const emptyProduct = (name: string) => testProduct(shop, { name, stock: 0 });

async function batch(productId: number, boxes: number, bestBefore: string, grower: string | null = null): Promise<BatchView> {
  const response = await addBatch(productId, { boxes, harvestedOn: '2026-11-20', bestBefore, grower });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<BatchView>();
}

/** A paid order of `boxes` of the product, placed by a shopper of its own. */
async function paidOrder(productId: number, boxes: number): Promise<string> {
  const shopper = await quickShopper(shop, 'packer');
  await shopper.add(productId, boxes);
  const placed = await shopper.order();
  expect(placed.statusCode, placed.body).toBe(201);
  const { number } = placed.json<PlacedOrder>().order;
  await setStatus(number, 'paid');
  return number;
}

async function packedFrom(number: string): Promise<Array<{ batchId: number; boxes: number }>> {
  const rows = await queryRows<{ batch_id: number; boxes: number }>(shop.database.db, sql`
    select b.batch_id, b.boxes from order_line_batches b join order_lines l on l.id = b.order_line_id join orders o on o.id = l.order_id
    where o.number = ${number} order by b.batch_id`);
  return rows.map((row) => ({ batchId: row.batch_id, boxes: row.boxes }));
}

async function expectConsistent() {
  const state = await shopConsistency(shop.database.db);
  expect(state.batchDrift).toEqual([]);
  expect(state.coolRoomDrift).toEqual([]);
  expect(state.stockDrift).toEqual([]);
}

describe('recording a batch', () => {
  it('adds its boxes to stock, lists it with its dates and boxes left, and turns bad input away field by field', async () => {
    const product = await emptyProduct('Batch Alphonso');
    const created = await addBatch(product.id, { boxes: 12, harvestedOn: '2026-11-24', bestBefore: '2026-12-08', grower: '  Rangi Orchard  ', note: 'Air freight from Ratnagiri' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<BatchView>()).toEqual({
      id: expect.any(Number),
      productId: product.id,
      boxesReceived: 12,
      boxesLeft: 12,
      harvestedOn: '2026-11-24',
      bestBefore: '2026-12-08',
      grower: 'Rangi Orchard',
      // Recorded without its own, and its product says none yet.
      originCountry: null,
      treatment: null,
      note: 'Air freight from Ratnagiri',
      receivedAt: expect.any(String),
    });
    expect(await stockOf(shop, product.id)).toBe(12);
    const moved = await shop.database.db.select().from(stockMovements).where(eq(stockMovements.productId, product.id));
    expect(moved.map((m) => [m.change, m.reason, m.note])).toEqual([[12, 'received', `Batch ${created.json<BatchView>().id}, best before 8 December 2026: Air freight from Ratnagiri`]]);

    const refusals: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ boxes: 0, harvestedOn: '2026-11-24', bestBefore: '2026-12-08' }, { boxes: 'Boxes must be at least 1' }],
      [{ boxes: 2.5, harvestedOn: '2026-11-24', bestBefore: '2026-12-08' }, { boxes: 'Boxes must be a whole number' }],
      [{ boxes: 3, bestBefore: '2026-12-08' }, { harvestedOn: 'Harvest date must be a date (YYYY-MM-DD)' }],
      [{ boxes: 3, harvestedOn: '2026-11-24', bestBefore: '2026-02-30' }, { bestBefore: 'Best-before date must be a real date' }],
      [{ boxes: 3, harvestedOn: '2026-11-24', bestBefore: '2026-11-20' }, { bestBefore: 'Best-before date must be on or after the harvest date' }],
      [{ boxes: 3, harvestedOn: '2026-11-24', bestBefore: '2026-12-08', grower: 'x'.repeat(121) }, { grower: 'Grower must be at most 120 characters' }],
      [{ boxes: 3, harvestedOn: '0000-01-01', bestBefore: '2026-12-08' }, { harvestedOn: 'Harvest date must be a date between 2000 and 2099' }],
      [{ boxes: 3, harvestedOn: '2026-12-03', bestBefore: '2099-12-08' }, { harvestedOn: 'Harvest date cannot be in the future' }],
    ];
    for (const [payload, fieldErrors] of refusals) {
      const refused = await addBatch(product.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toEqual(fieldErrors);
    }
    expect(await stockOf(shop, product.id)).toBe(12);
    expect((await addBatch(999_999, { boxes: 1, harvestedOn: '2026-11-24', bestBefore: '2026-12-08' })).statusCode).toBe(404);
    const shopper = await quickShopper(shop, 'nosy');
    expect((await shopper.call({ method: 'POST', url: `/api/admin/inventory/${product.id}/batches`, payload: { boxes: 1, harvestedOn: '2026-11-24', bestBefore: '2026-12-08' } })).statusCode).toBe(403);
    expect((await shopper.call({ method: 'GET', url: `/api/admin/inventory/${product.id}/batches` })).statusCode).toBe(403);
    await expectConsistent();
  });

  it('sends a pre-order product\u2019s boxes to its shipments, and a shipment with dates becomes its batch', async () => {
    const product = await testProduct(shop, { name: 'Batch Pre-order', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-15' });
    const refused = await addBatch(product.id, { boxes: 5, harvestedOn: '2026-11-24', bestBefore: '2026-12-08' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toContain('record its boxes as a shipment under Pre-orders');
    const shipped = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/shipments`, payload: { boxes: 6, arrivalDate: nzToday(Date.now()), harvestedOn: '2026-11-22', bestBefore: '2026-12-09', grower: 'Tamil Nadu Co-op' } });
    expect(shipped.statusCode, shipped.body).toBe(201);
    expect((await batchesOf(product.id)).map((b) => [b.boxesReceived, b.boxesLeft, b.harvestedOn, b.bestBefore, b.grower])).toEqual([[6, 6, '2026-11-22', '2026-12-09', 'Tamil Nadu Co-op']]);
    const backwards = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/shipments`, payload: { boxes: 1, arrivalDate: nzToday(Date.now()), harvestedOn: '2026-11-22', bestBefore: '2026-11-21' } });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toEqual({ bestBefore: 'Best-before date must be on or after the harvest date' });
    await expectConsistent();
  });
});

describe('packing', () => {
  it('takes each line from the earliest-expiring batch that has all its boxes, and records it', async () => {
    const product = await emptyProduct('Batch Kesar');
    const late = await batch(product.id, 10, '2026-12-20', 'Late Orchard');
    const mid = await batch(product.id, 3, '2026-12-10', 'Mid Orchard');
    const early = await batch(product.id, 2, '2026-12-05', 'Early Orchard');
    expect((await batchesOf(product.id)).map((b) => b.id)).toEqual([early.id, mid.id, late.id]);

    // Three boxes: the earliest batch has only 2, so the next that has all 3.
    const three = await paidOrder(product.id, 3);
    // Placing reserves the boxes: they stay in the cool room until packed.
    expect((await batchesOf(product.id)).map((b) => b.boxesLeft)).toEqual([2, 3, 10]);
    await setStatus(three, 'packed');
    expect(await packedFrom(three)).toEqual([{ batchId: mid.id, boxes: 3 }]);
    const two = await paidOrder(product.id, 2);
    await setStatus(two, 'packed');
    expect(await packedFrom(two)).toEqual([{ batchId: early.id, boxes: 2 }]);
    // Nine boxes: no batch but the last has them all.
    const nine = await paidOrder(product.id, 9);
    await setStatus(nine, 'packed');
    expect(await packedFrom(nine)).toEqual([{ batchId: late.id, boxes: 9 }]);
    expect((await batchesOf(product.id)).map((b) => [b.id, b.boxesLeft])).toEqual([[late.id, 1], [early.id, 0], [mid.id, 0]]);

    // Cancelled after packing: the boxes go back into the batch they came from, and to stock.
    await setStatus(three, 'cancelled');
    expect((await batchesOf(product.id)).find((b) => b.id === mid.id)?.boxesLeft).toBe(3);
    // Back in their batch, they are no longer the order's.
    expect(await packedFrom(three)).toEqual([]);
    expect(await stockOf(shop, product.id)).toBe(4);
    await expectConsistent();
  });

  it('splits a line across batches, earliest first, when no single batch has it all', async () => {
    const product = await emptyProduct('Batch Split');
    const first = await batch(product.id, 2, '2026-12-04');
    const second = await batch(product.id, 3, '2026-12-06');
    const number = await paidOrder(product.id, 4);
    await setStatus(number, 'packed');
    expect(await packedFrom(number)).toEqual([{ batchId: first.id, boxes: 2 }, { batchId: second.id, boxes: 2 }]);
    // Refunded before it left: both parts go back.
    await setStatus(number, 'refunded');
    expect((await batchesOf(product.id)).map((b) => b.boxesLeft)).toEqual([2, 3]);
    await expectConsistent();
  });

  it('gives the last boxes of a batch to one of two packers at once; the other packs from the next', async () => {
    const product = await emptyProduct('Batch Race');
    const last = await batch(product.id, 2, '2026-12-03');
    const next = await batch(product.id, 20, '2026-12-15');
    const numbers = await Promise.all(Array.from({ length: 6 }, () => paidOrder(product.id, 2)));
    const packed = await Promise.all(numbers.map((number) => staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status: 'packed' } })));
    expect(packed.map((response) => response.statusCode)).toEqual(numbers.map(() => 200));
    const sources = await Promise.all(numbers.map(packedFrom));
    expect(sources.filter((parts) => parts.length === 1 && parts[0]!.batchId === last.id)).toHaveLength(1);
    expect(sources.filter((parts) => parts.length === 1 && parts[0]!.batchId === next.id)).toHaveLength(5);
    expect((await batchesOf(product.id)).map((b) => [b.id, b.boxesLeft])).toEqual([[next.id, 10], [last.id, 0]]);
    await expectConsistent();
  });
});

describe('where the boxes come from, as staff read it', () => {
  it('plans each unpacked order down the dispatch list, first expiring first, and shows what packing recorded', async () => {
    const product = await emptyProduct('Batch Slip');
    const small = await batch(product.id, 2, '2026-12-04', 'Small Orchard');
    const big = await batch(product.id, 10, '2026-12-12', 'Big Orchard');
    const first = await paidOrder(product.id, 2);
    const second = await paidOrder(product.id, 2);
    const detail = async (number: string) => (await staff({ method: 'GET', url: `/api/admin/orders/${number}` })).json<AdminOrderDetail>();
    // Alone, each would take the small batch: the order's own view says where packing would take them now.
    expect((await detail(second)).lineBatches).toEqual([{ planned: true, short: 0, from: [{ batchId: small.id, boxes: 2, harvestedOn: '2026-11-20', bestBefore: '2026-12-04', grower: 'Small Orchard', originCountry: null, treatment: null }] }]);
    // The dispatch list plans them in turn: the first takes the small batch, the second the next.
    const { dispatchDate } = (await detail(first)) as { dispatchDate: string };
    const day = (await staff({ method: 'GET', url: `/api/admin/dispatch?date=${dispatchDate}` })).json<DispatchDay>();
    const listed = day.regions.flatMap((region) => region.orders).filter((order) => order.number === first || order.number === second);
    expect(listed.map((order) => [order.number, order.lines[0]!.batches?.from.map((part) => part.batchId)])).toEqual([
      [first, [small.id]],
      [second, [big.id]],
    ]);
    await setStatus(second, 'packed');
    expect((await detail(second)).lineBatches).toEqual([{ planned: false, short: 0, from: [expect.objectContaining({ batchId: small.id, boxes: 2 })] }]);
    expect((await detail(first)).lineBatches[0]?.from.map((part) => part.batchId)).toEqual([big.id]);
  });
});

describe('writing boxes off', () => {
  it('takes spoiled or donated boxes out of the batch and of stock, each a movement with its reason, never boxes an order holds', async () => {
    const product = await emptyProduct('Batch Write-off');
    const soft = await batch(product.id, 5, '2026-12-02');
    const writeOff = (batchId: number, payload: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/batches/${batchId}/write-offs`, payload });
    const spoiled = await writeOff(soft.id, { boxes: 2, reason: 'spoiled', note: 'Soft spots' });
    expect(spoiled.statusCode, spoiled.body).toBe(200);
    expect(spoiled.json<BatchView>().boxesLeft).toBe(3);
    expect((await writeOff(soft.id, { boxes: 1, reason: 'donated', note: 'City Mission' })).statusCode).toBe(200);
    expect(await stockOf(shop, product.id)).toBe(2);
    const moved = await shop.database.db.select().from(stockMovements).where(eq(stockMovements.productId, product.id));
    expect(moved.map((m) => [m.change, m.reason])).toEqual([[5, 'received'], [-2, 'spoiled'], [-1, 'donated']]);

    const tooMany = await writeOff(soft.id, { boxes: 3, reason: 'spoiled' });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json<{ fieldErrors: Record<string, string> }>().fieldErrors.boxes).toBe(`Batch ${soft.id}, best before 2 December 2026 has only 2 boxes left`);
    // One box on an order not packed yet: only the other may go.
    const held = await paidOrder(product.id, 1);
    const onOrder = await writeOff(soft.id, { boxes: 2, reason: 'spoiled' });
    expect(onOrder.statusCode).toBe(409);
    expect(onOrder.json<{ fieldErrors: Record<string, string> }>().fieldErrors.boxes).toBe('Only 1 box of Batch Write-off are free: the rest are on orders waiting to be packed');
    expect((await writeOff(soft.id, { boxes: 1, reason: 'unknown' })).statusCode).toBe(400);
    expect((await writeOff(999_999, { boxes: 1, reason: 'spoiled' })).statusCode).toBe(404);
    const other = await emptyProduct('Batch Other');
    const otherBatch = await batch(other.id, 1, '2026-12-09');
    expect((await writeOff(otherBatch.id, { boxes: 1, reason: 'spoiled' })).statusCode, 'a batch of another product').toBe(404);
    await setStatus(held, 'packed');
    await expectConsistent();
  });
});

describe('the dashboard\u2019s expiring batches', () => {
  it('lists batches with boxes left whose best-before is within the settings\u2019 days, soonest first', async () => {
    const product = await emptyProduct('Batch Expiring');
    const today = await batch(product.id, 1, '2026-12-01');
    const soon = await batch(product.id, 2, '2026-12-06');
    await batch(product.id, 3, '2026-12-07');
    const list = async () => (await staff({ method: 'GET', url: '/api/admin/inventory/batches/expiring' })).json<ExpiringBatch[]>().filter((b) => b.productId === product.id);
    // Five days by default: up to 6 December.
    expect((await list()).map((b) => [b.id, b.daysLeft, b.productName])).toEqual([[today.id, 0, 'Batch Expiring'], [soon.id, 5, 'Batch Expiring']]);
    const settings = (await staff({ method: 'GET', url: '/api/admin/settings' })).json<Record<string, unknown>>();
    const saved = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings, bestBeforeWarningDays: 0 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await list()).map((b) => b.id)).toEqual([today.id]);
    await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings, bestBeforeWarningDays: 5 } });
  });
});

describe('opening stock', () => {
  it('is one dated opening batch in the seeded shop, and packing takes from it', async () => {
    const seeded = await queryRows<{ product_id: number; boxes_left: number; best_before: string | null; stock: number }>(shop.database.db, sql`
      select b.product_id, b.boxes_left, b.best_before::text, p.stock from stock_batches b join products p on p.id = b.product_id where p.name = 'Alphonso Mangoes'`);
    expect(seeded).toEqual([{ product_id: expect.any(Number), boxes_left: seeded[0]!.stock, best_before: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), stock: seeded[0]!.stock }]);
    const number = await paidOrder(seeded[0]!.product_id, 1);
    await setStatus(number, 'packed');
    const [line] = await shop.database.db.select().from(orderLines).innerJoin(orders, eq(orders.id, orderLines.orderId)).where(eq(orders.number, number));
    expect(line).toBeDefined();
    expect(await packedFrom(number)).toHaveLength(1);
    await expectConsistent();
  });
});
