import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../../contracts/batches';
import type { AdminClaimDetail, ClaimView, OrderClaims } from '../../../contracts/claims';
import type { PlacedOrder } from '../../../contracts/order';
import { queryRows } from '../../db/client';
import { bruised, claimForm, deliveredOrder } from '../../testing/claim-helpers';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
let photo: Buffer;
beforeAll(async () => {
  ({ shop, staff } = await openStaffShop());
  photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#e8a33d' } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => shop?.close());

type Shopper = Awaited<ReturnType<typeof quickShopper>>;

async function batch(productId: number, boxes: number, bestBefore: string, grower: string): Promise<BatchView> {
  const response = await staff({ method: 'POST', url: `/api/admin/inventory/${productId}/batches`, payload: { boxes, harvestedOn: '2026-11-20', bestBefore, grower } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<BatchView>();
}

/** An order of `boxes` of the product taken through paid, packed, shipped and delivered. */
async function delivered(productId: number, boxes: number): Promise<{ shopper: Shopper; number: string; lineId: number }> {
  const shopper = await quickShopper(shop, 'batchclaim');
  await shopper.add(productId, boxes);
  const placed = await shopper.order();
  expect(placed.statusCode, placed.body).toBe(201);
  const { number } = placed.json<PlacedOrder>().order;
  for (const status of ['paid', 'packed', 'shipped', 'delivered']) {
    const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status, ...(status === 'shipped' ? { carrier: 'nz_post', trackingNumber: 'NZP-7' } : {}) } });
    expect(response.statusCode, response.body).toBe(200);
  }
  const lines = (await shopper.call({ method: 'GET', url: `/api/orders/${number}/claims` })).json<OrderClaims>().lines;
  return { shopper, number, lineId: lines[0]!.lineId };
}

async function claim(shopper: Shopper, number: string, lineId: number, boxes: number): Promise<ClaimView> {
  const response = await shopper.call({ method: 'POST', url: `/api/orders/${number}/claims`, ...claimForm(bruised(lineId, boxes), [photo]) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ClaimView>();
}

/** What the database recorded for the claim: its batches and boxes, by batch id. */
async function recorded(claimId: number): Promise<Array<{ batchId: number; boxes: number }>> {
  const rows = await queryRows<{ batch_id: number; boxes: number }>(
    shop.database.db,
    sql`select b.batch_id, b.boxes from claim_line_batches b join claim_lines l on l.id = b.claim_line_id where l.claim_id = ${claimId} order by b.batch_id`,
  );
  return rows.map((row) => ({ batchId: row.batch_id, boxes: row.boxes }));
}

const staffView = async (claimId: number) => (await staff({ method: 'GET', url: `/api/admin/claims/${claimId}` })).json<AdminClaimDetail>();

describe('POST /api/orders/:number/claims records the batches the claimed boxes came from', () => {
  it('a claim on a line packed from two batches records both, in batch order and never more than the line had from each', async () => {
    const product = await testProduct(shop, { name: 'Split Kensington', stock: 0 });
    // The older batch expires later, so packing takes the newer one first: 2 boxes from it, then 1 from the older.
    const older = await batch(product.id, 2, '2026-12-20', 'Kerikeri Orchard');
    const newer = await batch(product.id, 2, '2026-12-10', 'Gisborne Gold');
    const { shopper, number, lineId } = await delivered(product.id, 3);
    const packed = await queryRows<{ batch_id: number; boxes: number }>(shop.database.db, sql`select batch_id, boxes from order_line_batches where order_line_id = ${lineId} order by batch_id`);
    expect(packed.map((row) => [row.batch_id, row.boxes])).toEqual([
      [older.id, 1],
      [newer.id, 2],
    ]);

    const first = await claim(shopper, number, lineId, 2);
    expect(await recorded(first.id)).toEqual([
      { batchId: older.id, boxes: 1 },
      { batchId: newer.id, boxes: 1 },
    ]);
    // Staff see each line's batches and growers; the shopper's answer does not carry them.
    expect((await staffView(first.id)).lines).toEqual([
      {
        lineId,
        name: 'Split Kensington',
        quantity: 2,
        unitPrice: 50,
        batches: [
          { batchId: older.id, label: `Batch ${older.id}, best before 20 December 2026`, grower: 'Kerikeri Orchard', boxes: 1 },
          { batchId: newer.id, label: `Batch ${newer.id}, best before 10 December 2026`, grower: 'Gisborne Gold', boxes: 1 },
        ],
      },
    ]);
    expect(first.lines[0]).not.toHaveProperty('batches');

    // Once it is decided, the line's last box can be claimed: it is the one left of the newer batch.
    const declined = await staff({ method: 'POST', url: `/api/admin/claims/${first.id}/decline`, payload: { reason: 'The photos show ripe, unbruised mangoes.' } });
    expect(declined.statusCode, declined.body).toBe(200);
    const second = await claim(shopper, number, lineId, 1);
    expect(await recorded(second.id)).toEqual([{ batchId: newer.id, boxes: 1 }]);
  });

  it('records no batch for a line packed before batches were recorded, and staff see none', async () => {
    const { shopper, order, lines } = await deliveredOrder(shop, staff);
    await shop.database.db.execute(sql`delete from order_line_batches where order_line_id = ${lines[0]!.lineId}`);
    const made = await claim(shopper, order.number, lines[0]!.lineId, 2);
    expect(await recorded(made.id)).toEqual([]);
    expect((await staffView(made.id)).lines).toEqual([{ lineId: lines[0]!.lineId, name: 'Claim Alphonso', quantity: 2, unitPrice: 50, batches: [] }]);
  });
});
