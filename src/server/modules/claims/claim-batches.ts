import { asc, eq, inArray, sql } from 'drizzle-orm';
import { batchLabel } from '../../../contracts/batches';
import type { ClaimLineBatch } from '../../../contracts/claims';
import type { Db, Tx } from '../../db/client';
import { claimLineBatches, claimLines, orderLineBatches, stockBatches } from '../../db/schema';

interface BatchBoxes {
  batchId: number;
  boxes: number;
}

/**
 * Splits a claim line's boxes across the batches its order line was packed from, in the order they
 * were packed (by batch id), never more from a batch than the line had from it. Boxes that earlier
 * claims on the line already named are used up, so a second claim goes on where the first stopped
 * (as the migration's backfill does). Boxes no batch holds stay unassigned.
 */
export function splitAcrossBatches(claimed: number, packed: readonly BatchBoxes[], earlier: ReadonlyMap<number, number>): BatchBoxes[] {
  const split: BatchBoxes[] = [];
  let left = claimed;
  for (const batch of packed) {
    if (left === 0) break;
    const take = Math.min(batch.boxes - (earlier.get(batch.batchId) ?? 0), left);
    if (take <= 0) continue;
    split.push({ batchId: batch.batchId, boxes: take });
    left -= take;
  }
  return split;
}

/**
 * Records where the claim's boxes came from, inside the claim's transaction (the order is locked,
 * so no other claim on these lines is being recorded at the same time).
 */
export async function recordClaimBatches(tx: Tx, lines: ReadonlyArray<{ id: number; orderLineId: number; quantity: number }>): Promise<void> {
  const orderLineIds = lines.map((line) => line.orderLineId);
  const [packed, named] = await Promise.all([
    tx
      .select({ orderLineId: orderLineBatches.orderLineId, batchId: orderLineBatches.batchId, boxes: orderLineBatches.boxes })
      .from(orderLineBatches)
      .where(inArray(orderLineBatches.orderLineId, orderLineIds))
      .orderBy(asc(orderLineBatches.orderLineId), asc(orderLineBatches.batchId)),
    tx
      .select({ orderLineId: claimLines.orderLineId, batchId: claimLineBatches.batchId, boxes: sql<number>`sum(${claimLineBatches.boxes})::int` })
      .from(claimLineBatches)
      .innerJoin(claimLines, eq(claimLines.id, claimLineBatches.claimLineId))
      // This claim's lines have no batches yet: every row found is an earlier claim's.
      .where(inArray(claimLines.orderLineId, orderLineIds))
      .groupBy(claimLines.orderLineId, claimLineBatches.batchId),
  ]);
  const rows = lines.flatMap((line) => {
    const earlier = new Map(named.filter((one) => one.orderLineId === line.orderLineId).map((one) => [one.batchId, Number(one.boxes)]));
    const split = splitAcrossBatches(line.quantity, packed.filter((one) => one.orderLineId === line.orderLineId), earlier);
    return split.map((part) => ({ claimLineId: line.id, batchId: part.batchId, boxes: part.boxes }));
  });
  if (rows.length) await tx.insert(claimLineBatches).values(rows);
}

/** Each claimed order line's batches with their grower, for the staff view; none when unknown. */
export async function claimedBatchesOf(db: Db | Tx, claimId: number): Promise<Map<number, ClaimLineBatch[]>> {
  const rows = await db
    .select({ orderLineId: claimLines.orderLineId, batchId: stockBatches.id, bestBefore: stockBatches.bestBefore, grower: stockBatches.grower, boxes: claimLineBatches.boxes })
    .from(claimLineBatches)
    .innerJoin(claimLines, eq(claimLines.id, claimLineBatches.claimLineId))
    .innerJoin(stockBatches, eq(stockBatches.id, claimLineBatches.batchId))
    .where(eq(claimLines.claimId, claimId))
    .orderBy(asc(claimLines.id), asc(stockBatches.id));
  const byLine = new Map<number, ClaimLineBatch[]>();
  for (const row of rows) {
    const batches = byLine.get(row.orderLineId) ?? [];
    batches.push({ batchId: row.batchId, label: batchLabel({ id: row.batchId, bestBefore: row.bestBefore }), grower: row.grower, boxes: row.boxes });
    byLine.set(row.orderLineId, batches);
  }
  return byLine;
}
