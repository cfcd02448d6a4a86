import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { batchLabel } from '../../../contracts/batches';
import type { OrderStatus } from '../../../contracts/order';
import { type BatchClaimRow, type GrowerClaimRow, type ReportQuery, unknownBatchLabel } from '../../../contracts/reports';
import type { Db } from '../../db/client';
import { claimLineBatches, claimLines, claims, orderEvents, orderLineBatches, orderLines, orders, products, stockBatches } from '../../db/schema';
import { placedWithin } from './placed-within';

/**
 * The order's packed boxes are still out of the cool room: a cancel, or a refund before sending,
 * puts a packed order's boxes back into their batches (decision 0026), so those are not counted.
 */
const stillPacked: OrderStatus[] = ['packed', 'shipped', 'delivered'];
const keptPacked = or(
  inArray(orders.status, stillPacked),
  and(eq(orders.status, 'refunded'), sql`exists (select 1 from ${orderEvents} where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.status} = 'shipped')`),
);

/** A line's boxes that no batch row accounts for: it was packed before batches were recorded. */
const boxesWithoutBatch = sql<number>`(${orderLines.quantity} - coalesce((select sum(${orderLineBatches.boxes}) from ${orderLineBatches} where ${orderLineBatches.orderLineId} = ${orderLines.id}), 0))::int`;
const claimedWithoutBatch = sql<number>`(${claimLines.quantity} - coalesce((select sum(${claimLineBatches.boxes}) from ${claimLineBatches} where ${claimLineBatches.claimLineId} = ${claimLines.id}), 0))::int`;
const productName = sql<string>`coalesce(${products.name}, ${orderLines.productName})`;

/** Boxes claimed as a percentage of boxes packed, one decimal (computed from whole boxes). */
const claimedPercent = (claimed: number, packed: number): number | null => (packed > 0 ? Math.round((claimed * 1000) / packed) / 10 : null);

/** A row while it is summed: the claims as ids, so a claim over two batches of one grower counts once for the grower. */
interface Tally {
  row: Omit<BatchClaimRow, 'claims' | 'claimedPercent'>;
  claimIds: Set<number>;
}

/** Worst first: the highest share claimed, then the most boxes claimed. */
function worstFirst(a: { claimedPercent: number | null; boxesClaimed: number }, b: { claimedPercent: number | null; boxesClaimed: number }): number {
  return (b.claimedPercent ?? -1) - (a.claimedPercent ?? -1) || b.boxesClaimed - a.boxesClaimed;
}

/** Claims per batch and per grower for orders placed in the range (see `ClaimFigures`). */
export async function claimsByBatch(db: Db, { from, to }: ReportQuery): Promise<{ byBatch: BatchClaimRow[]; byGrower: GrowerClaimRow[] }> {
  const inRange = placedWithin(from, to);
  const [packed, claimed, packedUnknown, claimedUnknown] = await Promise.all([
    db
      .select({ batchId: orderLineBatches.batchId, boxes: sql<number>`sum(${orderLineBatches.boxes})::int` })
      .from(orderLineBatches)
      .innerJoin(orderLines, eq(orderLines.id, orderLineBatches.orderLineId))
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(inRange, keptPacked))
      .groupBy(orderLineBatches.batchId),
    db
      .select({ batchId: claimLineBatches.batchId, claimId: claimLines.claimId, boxes: sql<number>`sum(${claimLineBatches.boxes})::int` })
      .from(claimLineBatches)
      .innerJoin(claimLines, eq(claimLines.id, claimLineBatches.claimLineId))
      .innerJoin(claims, eq(claims.id, claimLines.claimId))
      .innerJoin(orders, eq(orders.id, claims.orderId))
      .where(inRange)
      .groupBy(claimLineBatches.batchId, claimLines.claimId),
    db
      .select({ productId: orderLines.productId, product: productName, boxes: boxesWithoutBatch })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .leftJoin(products, eq(products.id, orderLines.productId))
      .where(and(inRange, keptPacked, sql`${boxesWithoutBatch} > 0`)),
    db
      .select({ productId: orderLines.productId, product: productName, claimId: claimLines.claimId, boxes: claimedWithoutBatch })
      .from(claimLines)
      .innerJoin(orderLines, eq(orderLines.id, claimLines.orderLineId))
      .innerJoin(claims, eq(claims.id, claimLines.claimId))
      .innerJoin(orders, eq(orders.id, claims.orderId))
      .leftJoin(products, eq(products.id, orderLines.productId))
      .where(and(inRange, sql`${claimedWithoutBatch} > 0`)),
  ]);

  const batchIds = [...new Set([...packed, ...claimed].map((row) => row.batchId))];
  const batches = batchIds.length
    ? await db
        .select({ id: stockBatches.id, bestBefore: stockBatches.bestBefore, grower: stockBatches.grower, productId: stockBatches.productId, product: products.name })
        .from(stockBatches)
        .innerJoin(products, eq(products.id, stockBatches.productId))
        .where(inArray(stockBatches.id, batchIds))
    : [];
  const known = new Map<number, Tally>(
    batches.map((batch) => [
      batch.id,
      {
        row: { batchId: batch.id, label: batchLabel(batch), productId: batch.productId, product: batch.product, grower: batch.grower, boxesPacked: 0, boxesClaimed: 0 },
        claimIds: new Set<number>(),
      },
    ]),
  );
  // Unknown batches, one row per product (a deleted product's lines by the name they were sold under).
  const unknown = new Map<string, Tally>();
  const unknownOf = (line: { productId: number | null; product: string }) => {
    const key = line.productId === null ? `name:${line.product}` : `id:${line.productId}`;
    const tally = unknown.get(key) ?? {
      row: { batchId: null, label: unknownBatchLabel, productId: line.productId, product: line.product, grower: null, boxesPacked: 0, boxesClaimed: 0 },
      claimIds: new Set<number>(),
    };
    unknown.set(key, tally);
    return tally;
  };
  // A batch is missing only when its product was deleted between the reads: its boxes leave the report with it.
  for (const row of packed) {
    const tally = known.get(row.batchId);
    if (tally) tally.row.boxesPacked += Number(row.boxes);
  }
  for (const row of claimed) {
    const tally = known.get(row.batchId);
    if (!tally) continue;
    tally.row.boxesClaimed += Number(row.boxes);
    tally.claimIds.add(row.claimId);
  }
  for (const row of packedUnknown) unknownOf(row).row.boxesPacked += Number(row.boxes);
  for (const row of claimedUnknown) {
    const tally = unknownOf(row);
    tally.row.boxesClaimed += Number(row.boxes);
    tally.claimIds.add(row.claimId);
  }

  const figures = ({ row, claimIds }: Tally): BatchClaimRow => ({ ...row, claims: claimIds.size, claimedPercent: claimedPercent(row.boxesClaimed, row.boxesPacked) });
  const byBatch = [
    ...[...known.values()].map(figures).sort((a, b) => worstFirst(a, b) || a.batchId! - b.batchId!),
    ...[...unknown.values()].map(figures).sort((a, b) => worstFirst(a, b) || a.product.localeCompare(b.product)),
  ];
  return { byBatch, byGrower: byGrower([...known.values(), ...unknown.values()]) };
}

/** The batches' figures summed per grower; batches with no grower and unknown batches make "Grower unknown". */
function byGrower(tallies: Tally[]): GrowerClaimRow[] {
  const growers = new Map<string | null, { batches: number; boxesPacked: number; boxesClaimed: number; claimIds: Set<number> }>();
  for (const { row, claimIds } of tallies) {
    const grower = growers.get(row.grower) ?? { batches: 0, boxesPacked: 0, boxesClaimed: 0, claimIds: new Set<number>() };
    if (row.batchId !== null) grower.batches += 1;
    grower.boxesPacked += row.boxesPacked;
    grower.boxesClaimed += row.boxesClaimed;
    for (const id of claimIds) grower.claimIds.add(id);
    growers.set(row.grower, grower);
  }
  const rows = [...growers].map(([grower, sums]): GrowerClaimRow => ({
    grower,
    batches: sums.batches,
    boxesPacked: sums.boxesPacked,
    claims: sums.claimIds.size,
    boxesClaimed: sums.boxesClaimed,
    claimedPercent: claimedPercent(sums.boxesClaimed, sums.boxesPacked),
  }));
  const last = (row: GrowerClaimRow) => (row.grower === null ? 1 : 0);
  return rows.sort((a, b) => last(a) - last(b) || worstFirst(a, b) || (a.grower ?? '').localeCompare(b.grower ?? ''));
}
