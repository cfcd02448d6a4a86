import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../../contracts/batches';
import type { OrderClaims } from '../../../contracts/claims';
import type { OrderStatus, PlacedOrder } from '../../../contracts/order';
import type { SalesReport } from '../../../contracts/reports';
import { orders } from '../../db/schema';
import { bruised, claimForm } from '../../testing/claim-helpers';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

const delivery: OrderStatus[] = ['paid', 'packed', 'shipped', 'delivered'];

async function batch(productId: number, boxes: number, bestBefore: string, grower: string): Promise<BatchView> {
  const response = await staff({ method: 'POST', url: `/api/admin/inventory/${productId}/batches`, payload: { boxes, harvestedOn: '2026-11-20', bestBefore, grower } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<BatchView>();
}

/** An order of one product placed (then moved to `at`) and taken through staff steps; answers its line and a claim maker. */
async function order(productId: number, boxes: number, at: string, steps: OrderStatus[] = delivery) {
  const shopper = await quickShopper(shop, 'batchreport');
  await shopper.add(productId, boxes);
  const placed = await shopper.order();
  expect(placed.statusCode, placed.body).toBe(201);
  const { number } = placed.json<PlacedOrder>().order;
  await shop.database.db.update(orders).set({ createdAt: new Date(at) }).where(eq(orders.number, number));
  for (const status of steps) {
    const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status, ...(status === 'shipped' ? { carrier: 'nz_post', trackingNumber: 'NZP-9' } : {}) } });
    expect(response.statusCode, response.body).toBe(200);
  }
  const lineId = (await shopper.call({ method: 'GET', url: `/api/orders/${number}/claims` })).json<OrderClaims>().lines[0]!.lineId;
  const claim = async (claimed: number) => {
    const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer();
    const response = await shopper.call({ method: 'POST', url: `/api/orders/${number}/claims`, ...claimForm(bruised(lineId, claimed), [photo]) });
    expect(response.statusCode, response.body).toBe(201);
  };
  return { lineId, claim };
}

const report = async (query: string) => {
  const response = await staff({ method: 'GET', url: `/api/admin/reports?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SalesReport>();
};

describe('GET /api/admin/reports: claims by batch and by grower', () => {
  const ids = { early: 0, late: 0, gisborne: 0, unknownProduct: 0 };

  beforeAll(async () => {
    const kensington = await testProduct(shop, { name: 'Batch Kensington', stock: 0 });
    const calypso = await testProduct(shop, { name: 'Batch Calypso', stock: 0 });
    // Its 5 boxes are a batch of unknown dates and grower, as test stock is.
    const keitt = await testProduct(shop, { name: 'Batch Keitt', stock: 5 });
    ids.unknownProduct = keitt.id;
    ids.early = (await batch(kensington.id, 4, '2026-12-10', 'Kerikeri Orchard')).id;
    ids.late = (await batch(kensington.id, 6, '2026-12-20', 'Kerikeri Orchard')).id;
    ids.gisborne = (await batch(calypso.id, 5, '2026-12-15', 'Gisborne Gold')).id;

    // March 2026 is daylight time in New Zealand (UTC+13); the range is 2 to 10 March.
    const first = await order(kensington.id, 3, '2026-03-03T10:00:00+13:00'); // early 3
    await order(kensington.id, 3, '2026-03-04T10:00:00+13:00'); // late 3: early has 1 left, not all 3
    const split = await order(kensington.id, 4, '2026-03-05T10:00:00+13:00'); // no batch has all 4: early 1, late 3
    await order(calypso.id, 3, '2026-03-06T10:00:00+13:00'); // gisborne 3
    // Packed, then cancelled: its box goes back into the batch and is not counted.
    await order(calypso.id, 1, '2026-03-07T10:00:00+13:00', ['paid', 'packed', 'cancelled']);
    // Packed before batches were recorded: the line has no batch rows.
    const unknown = await order(keitt.id, 2, '2026-03-08T10:00:00+13:00');
    await shop.database.db.execute(sql`delete from order_line_batches where order_line_id = ${unknown.lineId}`);
    // Placed the day after the range: neither its boxes nor its claim count.
    const outside = await order(calypso.id, 1, '2026-03-11T00:30:00+13:00'); // gisborne 1

    await first.claim(2); // early 2
    await split.claim(2); // early 1, late 1: one claim over two batches of one grower
    await unknown.claim(1); // batch unknown
    await outside.claim(1);
  });

  it('gives boxes packed, claims, boxes claimed and the claimed share per batch, worst first, unknown batches last', async () => {
    const { claimsByBatch } = await report('from=2026-03-02&to=2026-03-10');
    expect(claimsByBatch).toEqual([
      { batchId: ids.early, label: `Batch ${ids.early}, best before 10 December 2026`, productId: expect.any(Number), product: 'Batch Kensington', grower: 'Kerikeri Orchard', boxesPacked: 4, claims: 2, boxesClaimed: 3, claimedPercent: 75 },
      { batchId: ids.late, label: `Batch ${ids.late}, best before 20 December 2026`, productId: expect.any(Number), product: 'Batch Kensington', grower: 'Kerikeri Orchard', boxesPacked: 6, claims: 1, boxesClaimed: 1, claimedPercent: 16.7 },
      { batchId: ids.gisborne, label: `Batch ${ids.gisborne}, best before 15 December 2026`, productId: expect.any(Number), product: 'Batch Calypso', grower: 'Gisborne Gold', boxesPacked: 3, claims: 0, boxesClaimed: 0, claimedPercent: 0 },
      { batchId: null, label: 'Batch unknown', productId: ids.unknownProduct, product: 'Batch Keitt', grower: null, boxesPacked: 2, claims: 1, boxesClaimed: 1, claimedPercent: 50 },
    ]);
  });

  it('sums them per grower, counting a claim over two of its batches once, with unknown growers last', async () => {
    const { claimsByGrower } = await report('from=2026-03-02&to=2026-03-10');
    expect(claimsByGrower).toEqual([
      { grower: 'Kerikeri Orchard', batches: 2, boxesPacked: 10, claims: 2, boxesClaimed: 4, claimedPercent: 40 },
      { grower: 'Gisborne Gold', batches: 1, boxesPacked: 3, claims: 0, boxesClaimed: 0, claimedPercent: 0 },
      { grower: null, batches: 0, boxesPacked: 2, claims: 1, boxesClaimed: 1, claimedPercent: 50 },
    ]);
  });

  it('covers the orders placed in the range, like every table', async () => {
    const later = await report('from=2026-03-11&to=2026-03-11');
    expect(later.claimsByBatch).toEqual([
      { batchId: ids.gisborne, label: `Batch ${ids.gisborne}, best before 15 December 2026`, productId: expect.any(Number), product: 'Batch Calypso', grower: 'Gisborne Gold', boxesPacked: 1, claims: 1, boxesClaimed: 1, claimedPercent: 100 },
    ]);
    expect(later.claimsByGrower).toEqual([{ grower: 'Gisborne Gold', batches: 1, boxesPacked: 1, claims: 1, boxesClaimed: 1, claimedPercent: 100 }]);
    const quiet = await report('from=2025-06-01&to=2025-06-03');
    expect(quiet).toMatchObject({ claimsByBatch: [], claimsByGrower: [] });
  });

  it('exports both tables as CSV, shares with one decimal', async () => {
    const csv = async (table: string) => {
      const response = await staff({ method: 'GET', url: `/api/admin/reports/${table}.csv?from=2026-03-02&to=2026-03-10` });
      expect(response.statusCode).toBe(200);
      return response.body.split('\r\n');
    };
    expect(await csv('claims-by-batch')).toEqual([
      'Batch,Product,Grower,Boxes packed,Claims,Boxes claimed,Claimed share (%)',
      `"Batch ${ids.early}, best before 10 December 2026",Batch Kensington,Kerikeri Orchard,4,2,3,75.0`,
      `"Batch ${ids.late}, best before 20 December 2026",Batch Kensington,Kerikeri Orchard,6,1,1,16.7`,
      `"Batch ${ids.gisborne}, best before 15 December 2026",Batch Calypso,Gisborne Gold,3,0,0,0.0`,
      'Batch unknown,Batch Keitt,Grower unknown,2,1,1,50.0',
      '',
    ]);
    expect(await csv('claims-by-grower')).toEqual([
      'Grower,Batches,Boxes packed,Claims,Boxes claimed,Claimed share (%)',
      'Kerikeri Orchard,2,10,2,4,40.0',
      'Gisborne Gold,1,3,0,0,0.0',
      'Grower unknown,0,2,1,1,50.0',
      '',
    ]);
  });
});
