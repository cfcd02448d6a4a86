import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { BatchMovementReason, BatchView } from '../../../contracts/batches';
import type { Treatment } from '../../../contracts/origin';
import type { ProductRow } from '../catalog/product-view';
import type { Db, Tx } from '../../db/client';
import { batchMovements, orderLineBatches, stockBatches } from '../../db/schema';
import { Conflict } from '../../lib/errors';

export type BatchRow = typeof stockBatches.$inferSelect;

interface MovementContext {
  orderId?: number | null;
  actorUserId?: number | null;
  note?: string;
}

export const batchView = (row: BatchRow): BatchView => ({
  id: row.id,
  productId: row.productId,
  boxesReceived: row.boxesReceived,
  boxesLeft: row.boxesLeft,
  harvestedOn: row.harvestedOn,
  bestBefore: row.bestBefore,
  grower: row.grower,
  originCountry: row.originCountry,
  treatment: row.treatment,
  note: row.note,
  receivedAt: row.createdAt.toISOString(),
});

/**
 * First expiring, first out: the earliest best-before first. A batch of unknown dates counts as
 * expiring the day it arrived: stock from before batches goes first, and boxes received without
 * dates go before fruit that keeps longer. Then the oldest.
 */
export const expiryOrder = [sql`coalesce(${stockBatches.bestBefore}, (${stockBatches.createdAt} at time zone 'Pacific/Auckland')::date) asc`, asc(stockBatches.createdAt), asc(stockBatches.id)];

/**
 * Locks every batch of the product in the order packing locks them, before boxes go back into
 * some of them: two transactions never lock a product's batches in different orders.
 */
export async function lockBatchesOf(tx: Tx, productId: number): Promise<void> {
  await tx.select({ id: stockBatches.id }).from(stockBatches).where(eq(stockBatches.productId, productId)).orderBy(...expiryOrder).for('update');
}

/** Boxes that arrived together become a batch, with the movement that explains its boxes. */
export async function receiveBatch(
  tx: Tx,
  batch: { productId: number; boxes: number; harvestedOn?: string | null; bestBefore?: string | null; grower?: string | null; shipmentId?: number | null; note?: string; originCountry?: string | null; treatment?: Treatment | null },
  reason: BatchMovementReason,
  context: MovementContext = {},
): Promise<BatchRow> {
  const [row] = await tx
    .insert(stockBatches)
    .values({
      productId: batch.productId,
      boxesReceived: batch.boxes,
      boxesLeft: batch.boxes,
      harvestedOn: batch.harvestedOn ?? null,
      bestBefore: batch.bestBefore ?? null,
      grower: batch.grower?.trim() || null,
      shipmentId: batch.shipmentId ?? null,
      note: batch.note ?? '',
      originCountry: batch.originCountry ?? null,
      treatment: batch.treatment ?? null,
    })
    .returning();
  await tx.insert(batchMovements).values({ batchId: row!.id, change: batch.boxes, reason, orderId: context.orderId ?? null, actorUserId: context.actorUserId ?? null, note: context.note ?? batch.note ?? '' });
  return row!;
}

/**
 * Takes `boxes` of the product out of its batches: from the earliest-expiring batch that has them
 * all, else from the earliest ones in turn. The product's batches are locked, so two packers
 * taking the last boxes of a batch at once take them one after the other. Answers what came from
 * where; throws when the batches hold fewer boxes than asked (the caller's stock said otherwise).
 */
export async function takeFromBatches(tx: Tx, productId: number, boxes: number, reason: BatchMovementReason, context: MovementContext = {}): Promise<Array<{ batch: BatchRow; boxes: number }>> {
  const batches = await tx
    .select()
    .from(stockBatches)
    .where(and(eq(stockBatches.productId, productId), gt(stockBatches.boxesLeft, 0)))
    .orderBy(...expiryOrder)
    .for('update');
  const { taken, short } = chooseBatches(batches, boxes);
  if (short > 0) throw new BatchShortfall(productId, boxes, boxes - short);
  for (const part of taken) {
    await tx.update(stockBatches).set({ boxesLeft: sql`${stockBatches.boxesLeft} - ${part.boxes}` }).where(eq(stockBatches.id, part.batch.id));
    await tx.insert(batchMovements).values({ batchId: part.batch.id, change: -part.boxes, reason, orderId: context.orderId ?? null, actorUserId: context.actorUserId ?? null, note: context.note ?? '' });
  }
  return taken;
}

/**
 * The rule packing follows, over batches in expiry order: the first batch that has all the boxes,
 * else the earliest ones in turn. `short` is what they cannot cover.
 */
export function chooseBatches<B extends { boxesLeft: number }>(batches: readonly B[], boxes: number): { taken: Array<{ batch: B; boxes: number }>; short: number } {
  const whole = batches.find((batch) => batch.boxesLeft >= boxes);
  const taken: Array<{ batch: B; boxes: number }> = [];
  let left = boxes;
  for (const batch of whole ? [whole] : batches) {
    if (left === 0) break;
    if (batch.boxesLeft === 0) continue;
    const take = Math.min(batch.boxesLeft, left);
    taken.push({ batch, boxes: take });
    left -= take;
  }
  return { taken, short: left };
}

/** Boxes come back to a batch (a packed order cancelled): its boxes left grow, with a movement. */
export async function putBackIntoBatch(tx: Tx, batchId: number, boxes: number, reason: BatchMovementReason, context: MovementContext = {}): Promise<void> {
  await tx.update(stockBatches).set({ boxesLeft: sql`${stockBatches.boxesLeft} + ${boxes}` }).where(eq(stockBatches.id, batchId));
  await tx.insert(batchMovements).values({ batchId, change: boxes, reason, orderId: context.orderId ?? null, actorUserId: context.actorUserId ?? null, note: context.note ?? '' });
}

/**
 * Boxes found on a recount join the newest batch of the product (a miscount is likeliest in what
 * came in last); a product without batches gets one of unknown dates.
 */
export async function addToNewestBatch(tx: Tx, productId: number, boxes: number, reason: BatchMovementReason, context: MovementContext = {}): Promise<void> {
  const [newest] = await tx.select().from(stockBatches).where(eq(stockBatches.productId, productId)).orderBy(desc(stockBatches.createdAt), desc(stockBatches.id)).limit(1).for('update');
  if (!newest) {
    await receiveBatch(tx, { productId, boxes, note: context.note ?? '' }, reason, context);
    return;
  }
  // Boxes received is what arrived: a recount beyond it still counts as part of the batch.
  await tx
    .update(stockBatches)
    .set({ boxesLeft: sql`${stockBatches.boxesLeft} + ${boxes}`, boxesReceived: sql`greatest(${stockBatches.boxesReceived}, ${stockBatches.boxesLeft} + ${boxes})` })
    .where(eq(stockBatches.id, newest.id));
  await tx.insert(batchMovements).values({ batchId: newest.id, change: boxes, reason, orderId: context.orderId ?? null, actorUserId: context.actorUserId ?? null, note: context.note ?? '' });
}

/** Moves the product's stock by `change` in its batches too: in to the newest, out first expiring first. */
export async function moveBatchesWithStock(tx: Tx, productId: number, change: number, reason: BatchMovementReason, context: MovementContext = {}): Promise<void> {
  if (change > 0) await addToNewestBatch(tx, productId, change, reason, context);
  else if (change < 0) await takeFromBatches(tx, productId, -change, reason, context);
}

/** The batches an order line's boxes were packed from, forgotten as they are read: the boxes go back. */
export async function takeBackPackedBatches(tx: Tx, orderLineId: number): Promise<Array<{ batchId: number; boxes: number }>> {
  return tx.delete(orderLineBatches).where(eq(orderLineBatches.orderLineId, orderLineId)).returning({ batchId: orderLineBatches.batchId, boxes: orderLineBatches.boxes });
}

/** The batches hold fewer boxes than asked: nothing is taken, and staff are told what to record. */
export class BatchShortfall extends Conflict {
  constructor(
    readonly productId: number,
    readonly wanted: number,
    readonly found: number,
  ) {
    super(`The cool room's batches of this product hold ${found} ${found === 1 ? 'box' : 'boxes'}, not ${wanted}: record the batch the boxes came in on Inventory first.`);
  }
}

/**
 * The harvest date of the batch each product's next box sold would be packed from: packing goes
 * first expiring first out, so the boxes sold but not packed yet (boxes in the cool room beyond
 * the stock) take the earliest, and the next box sold comes after them. No entry when the product
 * has no stock or that batch's harvest is unknown. `stock`: the products asked about.
 */
export async function nextHarvests(db: Db, stock: ReadonlyMap<number, number>): Promise<Map<number, string>> {
  const ids = [...stock.entries()].filter(([, boxes]) => boxes > 0).map(([id]) => id);
  if (!ids.length) return new Map();
  const rows = await db
    .select({ productId: stockBatches.productId, boxesLeft: stockBatches.boxesLeft, harvestedOn: stockBatches.harvestedOn })
    .from(stockBatches)
    .where(and(gt(stockBatches.boxesLeft, 0), ids.length === stock.size ? undefined : inArray(stockBatches.productId, ids)))
    .orderBy(asc(stockBatches.productId), ...expiryOrder);
  const byProduct = new Map<number, typeof rows>();
  for (const row of rows) byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row]);
  const next = new Map<number, string>();
  for (const [productId, batches] of byProduct) {
    const onSale = stock.get(productId) ?? 0;
    if (onSale <= 0) continue;
    let owed = batches.reduce((sum, batch) => sum + batch.boxesLeft, 0) - onSale;
    for (const batch of batches) {
      if (owed < batch.boxesLeft) {
        if (batch.harvestedOn) next.set(productId, batch.harvestedOn);
        break;
      }
      owed -= batch.boxesLeft;
    }
  }
  return next;
}

/** Where the boxes on sale come from and how they were treated, by product. */
export interface OfferedOrigin {
  countries: Set<string>;
  treatments: Set<Treatment>;
}

/**
 * The countries and treatments of the boxes a shopper ordering now could be sent: the batches the
 * boxes on sale are in (first expiring first, after the boxes already sold), each batch as it was
 * recorded or, recorded without, as its product says. A product with no box on sale (sold out, a
 * pre-order) offers what its product says of the coming shipment.
 */
export async function offeredOrigins(db: Db, rows: ReadonlyArray<Pick<ProductRow, 'id' | 'stock' | 'originCountry' | 'treatment'>>): Promise<Map<number, OfferedOrigin>> {
  const batches = await db
    .select({ productId: stockBatches.productId, boxesLeft: stockBatches.boxesLeft, originCountry: stockBatches.originCountry, treatment: stockBatches.treatment })
    .from(stockBatches)
    .where(and(gt(stockBatches.boxesLeft, 0), rows.length === 1 ? eq(stockBatches.productId, rows[0]!.id) : undefined))
    .orderBy(asc(stockBatches.productId), ...expiryOrder);
  const byProduct = new Map<number, typeof batches>();
  for (const batch of batches) byProduct.set(batch.productId, [...(byProduct.get(batch.productId) ?? []), batch]);
  const offered = new Map<number, OfferedOrigin>();
  for (const row of rows) {
    const own = { countries: new Set(row.originCountry ? [row.originCountry] : []), treatments: new Set(row.treatment ? [row.treatment] : []) };
    const held = byProduct.get(row.id) ?? [];
    let owed = held.reduce((sum, batch) => sum + batch.boxesLeft, 0) - row.stock;
    const onSale = row.stock > 0 ? held.filter((batch) => {
      if (owed >= batch.boxesLeft) {
        owed -= batch.boxesLeft;
        return false;
      }
      owed = 0;
      return true;
    }) : [];
    if (!onSale.length) {
      offered.set(row.id, own);
      continue;
    }
    const countries = new Set<string>();
    const kinds = new Set<Treatment>();
    for (const batch of onSale) {
      const country = batch.originCountry ?? row.originCountry;
      const treatment = batch.treatment ?? row.treatment;
      if (country) countries.add(country);
      if (treatment) kinds.add(treatment);
    }
    offered.set(row.id, { countries, treatments: kinds });
  }
  return offered;
}
