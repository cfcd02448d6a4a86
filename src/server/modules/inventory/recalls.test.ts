import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../../contracts/batches';
import type { OrderView, PlacedOrder } from '../../../contracts/order';
import type { RecallSummary, RecallView } from '../../../contracts/recalls';
import { type Database, openPostgres, queryRows } from '../../db/client';
import { auditLog, stockMovements } from '../../db/schema';
import { shopConsistency } from '../../faults/consistency';
import { quickShopper, stockOf, testProduct } from '../../testing/order-helpers';
import { as, createTestShop, signInAdmin, type StaffCall, type TestShop } from '../../testing/test-app';
import { RecallService } from './recalls';

// The shop's clock: Tuesday 1 December 2026 in New Zealand (harvest dates are checked against it).
const now = Date.parse('2026-11-30T21:00:00Z');
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => {
  shop = await createTestShop({}, { clock: () => new Date(now) });
  staff = as(shop.app, (await signInAdmin(shop)).cookie);
});
afterAll(async () => shop?.close());

const recallOf = (batchId: number, payload: Record<string, unknown> = { reason: 'Listeria found in a packhouse sample', advice: 'Do not eat them; put them in the rubbish. We refund every box.' }) =>
  staff({ method: 'POST', url: `/api/admin/batches/${batchId}/recall`, payload });
type Shopper = Awaited<ReturnType<typeof quickShopper>>;

async function batch(productId: number, boxes: number, bestBefore: string): Promise<BatchView> {
  const response = await staff({ method: 'POST', url: `/api/admin/inventory/${productId}/batches`, payload: { boxes, harvestedOn: '2026-11-20', bestBefore } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<BatchView>();
}

async function setStatus(number: string, status: string): Promise<void> {
  const payload = status === 'shipped' ? { status, trackingNumber: 'NZ123456789', carrier: 'nz_post' } : { status };
  const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload });
  expect(response.statusCode, `${number} → ${status}: ${response.body}`).toBe(200);
}

/** An order of `boxes` of the product by `shopper` (a new one when not given), taken as far as `to`. */
async function orderOf(productId: number, boxes: number, to: 'pending_payment' | 'paid' | 'packed' | 'shipped', shopper?: Shopper): Promise<{ number: string; shopper: Shopper }> {
  const buyer = shopper ?? (await quickShopper(shop, 'recall'));
  await buyer.add(productId, boxes);
  const placed = await buyer.order();
  expect(placed.statusCode, placed.body).toBe(201);
  const { number } = placed.json<PlacedOrder>().order;
  const steps = ['paid', 'packed', 'shipped'];
  for (const step of steps.slice(0, steps.indexOf(to) + 1)) await setStatus(number, step);
  return { number, shopper: buyer };
}

async function packedFrom(number: string): Promise<number[]> {
  const rows = await queryRows<{ batch_id: number }>(shop.database.db, sql`
    select b.batch_id from order_line_batches b join order_lines l on l.id = b.order_line_id join orders o on o.id = l.order_id
    where o.number = ${number} order by b.batch_id`);
  return rows.map((row) => row.batch_id);
}

async function expectConsistent() {
  const state = await shopConsistency(shop.database.db);
  expect(state.batchDrift).toEqual([]);
  expect(state.coolRoomDrift).toEqual([]);
  expect(state.stockDrift).toEqual([]);
}

const recallMails = async (productName: string) => (await shop.mail()).filter((mail) => mail.subject === `Recall: ${productName} from your order`);

describe('recalling a batch', () => {
  it('writes off its boxes, gives waiting orders boxes of another batch or holds them, and mails each shopper sent boxes once', async () => {
    const product = await testProduct(shop, { name: 'Recall Alphonso', stock: 0 });
    const unsafe = await batch(product.id, 7, '2026-12-05');
    const safe = await batch(product.id, 2, '2026-12-10');
    // One shopper was sent boxes of the batch on two orders; they are told once.
    const sent = await orderOf(product.id, 2, 'shipped');
    const sentAgain = await orderOf(product.id, 1, 'packed', sent.shopper);
    expect(await packedFrom(sent.number)).toEqual([unsafe.id]);
    expect(await packedFrom(sentAgain.number)).toEqual([unsafe.id]);
    // Two orders wait for boxes of it (packing would take them from the earliest best-before).
    const waiting = await orderOf(product.id, 2, 'paid');
    const unpaid = await orderOf(product.id, 2, 'pending_payment');
    // The unsafe batch holds 4: both orders' boxes. The safe batch's 2 are on sale.
    expect(await stockOf(shop, product.id)).toBe(2);
    const before = (await recallMails('Recall Alphonso')).length;

    const answer = await recallOf(unsafe.id);
    expect(answer.statusCode, answer.body).toBe(201);
    const recall = answer.json<RecallView>();
    expect(recall).toMatchObject({
      batchId: unsafe.id,
      productId: product.id,
      productName: 'Recall Alphonso',
      batchLabel: `Batch ${unsafe.id}, best before 5 December 2026`,
      reason: 'Listeria found in a packhouse sample',
      advice: 'Do not eat them; put them in the rubbish. We refund every box.',
      boxesWrittenOff: 4,
      closedAt: null,
      counts: { reallocated: 1, held: 1, mailed: 2 },
    });
    const byNumber = new Map(recall.orders.map((row) => [row.orderNumber, row]));
    expect(byNumber.get(sent.number)).toMatchObject({ action: 'mailed', boxes: 2, boxesShort: 0, status: 'shipped', email: sent.shopper.user.email, phone: '021 123 4567', customerName: 'Aroha Ngata', onHold: false });
    expect(byNumber.get(sent.number)!.packedAt).not.toBeNull();
    expect(byNumber.get(sent.number)!.dispatchedAt).not.toBeNull();
    expect(byNumber.get(sentAgain.number)).toMatchObject({ action: 'mailed', boxes: 1, status: 'packed', dispatchedAt: null });
    // The earlier order gets the safe batch's boxes; the later one waits for boxes.
    expect(byNumber.get(waiting.number)).toMatchObject({ action: 'reallocated', boxes: 2, boxesShort: 0, onHold: false, packedAt: null });
    expect(byNumber.get(unpaid.number)).toMatchObject({ action: 'held', boxes: 2, boxesShort: 2, onHold: true });

    // The cool room has no box of it left, and nothing is on sale: both safe boxes are promised.
    const batches = (await staff({ method: 'GET', url: `/api/admin/inventory/${product.id}/batches` })).json<BatchView[]>();
    expect(batches.find((one) => one.id === unsafe.id)!.boxesLeft).toBe(0);
    expect(await stockOf(shop, product.id)).toBe(0);
    const moved = await shop.database.db.select().from(stockMovements).where(and(eq(stockMovements.productId, product.id), eq(stockMovements.reason, 'recall')));
    expect(moved.map((one) => one.change)).toEqual([-2]);
    await expectConsistent();

    // One mail to the shopper sent boxes, naming both orders, the reason and the advice.
    const mails = (await recallMails('Recall Alphonso')).slice(before);
    expect(mails.map((mail) => mail.to)).toEqual([sent.shopper.user.email]);
    expect(mails[0]!.text).toContain(`Order ${sent.number}: 2 boxes`);
    expect(mails[0]!.text).toContain(`Order ${sentAgain.number}: 1 box`);
    expect(mails[0]!.text).toContain('Why: Listeria found in a packhouse sample');
    expect(mails[0]!.text).toContain('What to do: Do not eat them; put them in the rubbish. We refund every box.');

    // The held order says why, to its shopper and to staff, and is not packed.
    const held = (await unpaid.shopper.call({ method: 'GET', url: `/api/orders/${unpaid.number}` })).json<OrderView>();
    expect(held.hold?.reason).toBe(`Recall Alphonso, batch ${unsafe.id}, best before 5 December 2026, was recalled (Listeria found in a packhouse sample)`);
    expect((await staff({ method: 'GET', url: `/api/admin/orders/${unpaid.number}` })).json<OrderView>().hold?.reason).toBe(held.hold?.reason);
    expect((await waiting.shopper.call({ method: 'GET', url: `/api/orders/${waiting.number}` })).json<OrderView>().hold).toBeNull();
    await setStatus(unpaid.number, 'paid');
    const refused = await staff({ method: 'POST', url: `/api/admin/orders/${unpaid.number}/status`, payload: { status: 'packed' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(`This order is on hold: ${held.hold?.reason}. Release the hold on its page once its boxes are in, or cancel it.`);
    // The re-allocated order is packed from the safe batch.
    await setStatus(waiting.number, 'packed');
    expect(await packedFrom(waiting.number)).toEqual([safe.id]);

    // Once.
    const again = await recallOf(unsafe.id);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toMatch(new RegExp(`^Batch ${unsafe.id} was already recalled on \\d{1,2} [A-Z][a-z]+ \\d{4}\\.$`));
    expect((await recallMails('Recall Alphonso')).length).toBe(before + 1);

    // Released only once boxes are in: then it takes them from stock and may be packed.
    const early = await staff({ method: 'POST', url: `/api/admin/orders/${unpaid.number}/release-hold` });
    expect(early.statusCode).toBe(409);
    expect(early.json<{ message: string }>().message).toBe('The order needs 2 more boxes of Recall Alphonso and none are in stock: record a batch on Inventory first, or cancel the order.');
    const fresh = await batch(product.id, 5, '2026-12-14');
    const released = await staff({ method: 'POST', url: `/api/admin/orders/${unpaid.number}/release-hold` });
    expect(released.statusCode, released.body).toBe(204);
    expect(await stockOf(shop, product.id)).toBe(3);
    expect((await unpaid.shopper.call({ method: 'GET', url: `/api/orders/${unpaid.number}` })).json<OrderView>().hold).toBeNull();
    await setStatus(unpaid.number, 'packed');
    expect(await packedFrom(unpaid.number)).toEqual([fresh.id]);
    await expectConsistent();
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${unpaid.number}/release-hold` })).statusCode).toBe(409);

    const audit = await shop.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'inventory.recall'), eq(auditLog.entityId, String(unsafe.id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ reason: 'Listeria found in a packhouse sample', reallocated: 1, held: 1, mailed: 1 });
  });

  it('lists the affected orders as CSV, and stays on the dashboard list until staff close it', async () => {
    const product = await testProduct(shop, { name: 'Recall Kesar', stock: 0 });
    const unsafe = await batch(product.id, 3, '2026-12-04');
    const sent = await orderOf(product.id, 1, 'shipped');
    await shop.database.db.execute(sql`update users set first_name = '=HYPERLINK("x")' where id = ${sent.shopper.user.id}`);
    expect((await recallOf(unsafe.id)).statusCode).toBe(201);

    const csv = await staff({ method: 'GET', url: `/api/admin/batches/${unsafe.id}/recall.csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="recall-batch-${unsafe.id}.csv"`);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Order,Shopper,Email,Phone,Boxes,Boxes short,Status,Packed,Dispatched,Delivered,Action,On hold now');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${sent.number},"'=HYPERLINK\\(""x""\\) Ngata",${sent.shopper.user.email},021 123 4567,1,0,shipped,\\d{4}-.+Z,\\d{4}-.+Z,,Shopper e-mailed,No$`));

    const listed = async () => (await staff({ method: 'GET', url: '/api/admin/recalls' })).json<{ recalls: RecallSummary[] }>().recalls.find((one) => one.batchId === unsafe.id);
    expect(await listed()).toMatchObject({ productName: 'Recall Kesar', closedAt: null, counts: { reallocated: 0, held: 0, mailed: 1 }, stillHeld: 0 });
    const closed = await staff({ method: 'POST', url: `/api/admin/batches/${unsafe.id}/recall/close` });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json<RecallView>().closedAt).not.toBeNull();
    expect((await listed())!.closedAt).not.toBeNull();
    expect((await staff({ method: 'GET', url: `/api/admin/batches/${unsafe.id}/recall` })).json<RecallView>().orders).toHaveLength(1);
  });

  it('is for staff only, and needs a reason and advice', async () => {
    const product = await testProduct(shop, { name: 'Recall Langra', stock: 0 });
    const unsafe = await batch(product.id, 2, '2026-12-04');
    const shopper = await quickShopper(shop, 'nosy');
    const payload = { reason: 'Mould found', advice: 'Throw them away' };
    expect((await shopper.call({ method: 'POST', url: `/api/admin/batches/${unsafe.id}/recall`, payload })).statusCode).toBe(403);
    expect((await shop.app.inject({ method: 'POST', url: `/api/admin/batches/${unsafe.id}/recall`, payload })).statusCode).toBe(401);
    expect((await shopper.call({ method: 'GET', url: `/api/admin/batches/${unsafe.id}/recall.csv` })).statusCode).toBe(403);
    const bad = await recallOf(unsafe.id, { reason: ' ', advice: 'x'.repeat(1001) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toEqual({ reason: 'Give the reason for the recall', advice: 'Advice must be at most 1000 characters' });
    expect((await recallOf(999_999, payload)).statusCode).toBe(404);
    expect((await staff({ method: 'GET', url: `/api/admin/batches/${unsafe.id}/recall` })).statusCode).toBe(404);
    // Nothing happened to the batch.
    expect(await stockOf(shop, product.id)).toBe(2);
  });

  it('gives a held order back only the boxes it still has when it is cancelled', async () => {
    const product = await testProduct(shop, { name: 'Recall Dasheri', stock: 0 });
    const unsafe = await batch(product.id, 3, '2026-12-04');
    await batch(product.id, 1, '2026-12-09');
    // 3 boxes: 3 from the unsafe batch (the whole batch); the other batch's one box is on sale.
    const order = await orderOf(product.id, 3, 'paid');
    expect((await recallOf(unsafe.id)).json<RecallView>().orders).toMatchObject([{ orderNumber: order.number, action: 'held', boxes: 3, boxesShort: 2 }]);
    expect(await stockOf(shop, product.id)).toBe(0);
    await expectConsistent();
    await setStatus(order.number, 'cancelled');
    expect(await stockOf(shop, product.id)).toBe(1);
    await expectConsistent();
  });
});

/**
 * A recall and packers at the same moment, and a recall sent twice at once, from two server
 * processes where there is a server (one process's connections on the embedded database).
 */
describe('a recall at the same moment as packing', () => {
  async function secondProcess(): Promise<{ recalls: RecallService; close(): Promise<void> }> {
    const second: Database = shop.databaseUrl ? await openPostgres(shop.databaseUrl, { poolSize: 4 }) : shop.database;
    const recalls = new RecallService({ db: second.db, settings: shop.app.services.settings, bus: shop.app.services.bus, publicUrl: 'http://localhost:3000' });
    return { recalls, close: async () => (second === shop.database ? undefined : second.close()) };
  }

  it('ends with each box packed before the recall, its shopper mailed, or packed from another batch', async () => {
    const product = await testProduct(shop, { name: 'Race Alphonso', stock: 0 });
    const unsafe = await batch(product.id, 6, '2026-12-04');
    const safe = await batch(product.id, 6, '2026-12-09');
    const orders = await Promise.all(Array.from({ length: 6 }, () => orderOf(product.id, 1, 'paid')));
    await batch(product.id, 4, '2026-12-12');
    const before = (await recallMails('Race Alphonso')).length;
    const other = await secondProcess();
    try {
      const [admin] = await queryRows<{ id: number }>(shop.database.db, sql`select id from users where email = 'owner@mangoshop.co.nz'`);
      await other.recalls.list(); // its connections open before the race
      // Packers start one after another, a few milliseconds apart, and the recall among them.
      const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const [recalled, ...packs] = await Promise.all([
        after(15).then(() => other.recalls.recall(unsafe.id, { reason: 'Wrong treatment record', advice: 'Please do not eat them.' }, { userId: Number(admin!.id), requestId: 'race' })),
        ...orders.map(({ number }, index) => after(index * 6).then(() => staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status: 'packed' } }))),
      ]);
      for (const pack of packs) expect(pack.statusCode, pack.body).toBe(200);
      const fromUnsafe: string[] = [];
      for (const { number } of orders) {
        const batches = await packedFrom(number);
        expect([[unsafe.id], [safe.id]]).toContainEqual(batches);
        if (batches[0] === unsafe.id) fromUnsafe.push(number);
      }
      const action = new Map(recalled.orders.map((row) => [row.orderNumber, row.action]));
      for (const { number } of orders) expect(action.get(number), number).toBe(fromUnsafe.includes(number) ? 'mailed' : 'reallocated');
      expect(recalled.boxesWrittenOff).toBe(6 - fromUnsafe.length);
      const mails = (await recallMails('Race Alphonso')).slice(before);
      expect(mails.map((mail) => mail.to).sort()).toEqual(orders.filter(({ number }) => fromUnsafe.includes(number)).map(({ shopper }) => shopper.user.email).sort());
      // Boxes of the safe batch went to the orders the recall left without; the rest, and the later batch's 4, stay on sale.
      expect(await stockOf(shop, product.id)).toBe(fromUnsafe.length + 4);
      await expectConsistent();
    } finally {
      await other.close();
    }
  });

  it('recalls once when sent twice at once, from two processes, and mails once', async () => {
    const product = await testProduct(shop, { name: 'Twice Alphonso', stock: 0 });
    const unsafe = await batch(product.id, 4, '2026-12-04');
    await orderOf(product.id, 1, 'shipped');
    const before = (await recallMails('Twice Alphonso')).length;
    const other = await secondProcess();
    try {
      const [admin] = await queryRows<{ id: number }>(shop.database.db, sql`select id from users where email = 'owner@mangoshop.co.nz'`);
      const input = { reason: 'Pesticide residue above the limit', advice: 'Please do not eat them.' };
      const answers = await Promise.allSettled([
        other.recalls.recall(unsafe.id, input, { userId: Number(admin!.id), requestId: 'twice' }),
        recallOf(unsafe.id, input),
        other.recalls.recall(unsafe.id, input, { userId: Number(admin!.id), requestId: 'twice' }),
        recallOf(unsafe.id, input),
      ]);
      const made = answers.filter((one) => (one.status === 'fulfilled' && !('statusCode' in one.value)) || (one.status === 'fulfilled' && 'statusCode' in one.value && one.value.statusCode === 201));
      expect(made).toHaveLength(1);
      for (const one of answers) {
        if (one.status === 'rejected') expect((one.reason as { statusCode?: number }).statusCode).toBe(409);
        else if ('statusCode' in one.value && one.value.statusCode !== 201) expect(one.value.statusCode).toBe(409);
      }
      expect((await recallMails('Twice Alphonso')).length).toBe(before + 1);
      expect(await stockOf(shop, product.id)).toBe(0);
      await expectConsistent();
    } finally {
      await other.close();
    }
  });
});
