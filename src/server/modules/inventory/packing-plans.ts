import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { LinePacking, PackedFrom } from '../../../contracts/batches';
import type { OrderStatus } from '../../../contracts/order';
import type { Db } from '../../db/client';
import type { Treatment } from '../../../contracts/origin';
import { orderLineBatches, products, stockBatches } from '../../db/schema';
import { type BatchRow, chooseBatches, expiryOrder } from './batches';

interface PlannedLine {
  id: number;
  orderId: number;
  productId: number | null;
  quantity: number;
  isPreOrder: boolean;
  allocatedAt: Date | null;
  /** Boxes a recall took that no batch replaced (the order on hold): not planned. */
  recalledBoxes?: number;
}

/** Statuses whose lines hold boxes still on the shelf: packing will take them. */
const unpacked: readonly OrderStatus[] = ['pending_payment', 'paid'];

type ProductOrigin = { originCountry: string | null; treatment: Treatment | null };

/** A batch recorded without its own origin is what its product says. */
const fromRow = (batch: Pick<BatchRow, 'id' | 'productId' | 'harvestedOn' | 'bestBefore' | 'grower' | 'originCountry' | 'treatment'>, boxes: number, products: ReadonlyMap<number, ProductOrigin>): PackedFrom => ({
  batchId: batch.id,
  boxes,
  harvestedOn: batch.harvestedOn,
  bestBefore: batch.bestBefore,
  grower: batch.grower,
  originCountry: batch.originCountry ?? products.get(batch.productId)?.originCountry ?? null,
  treatment: batch.treatment ?? products.get(batch.productId)?.treatment ?? null,
});

/**
 * Where each line's boxes come from, for the packing slip, the dispatch list and the order's staff
 * view: what packing recorded, or for orders not packed yet, where packing would take them now,
 * orders in the order given each taking before the next (as a packer working down the list would).
 * Lines that hold no boxes (a pre-order still waiting for its shipment) have none. Keyed by line id.
 */
export async function packingOf(db: Db, orders: ReadonlyArray<{ id: number; status: OrderStatus }>, lines: readonly PlannedLine[]): Promise<Map<number, LinePacking>> {
  const plans = new Map<number, LinePacking>();
  const held = lines.filter((line) => line.productId !== null && (!line.isPreOrder || line.allocatedAt !== null));
  if (!held.length) return plans;
  const productRows = await db
    .select({ id: products.id, originCountry: products.originCountry, treatment: products.treatment })
    .from(products)
    .where(inArray(products.id, [...new Set(held.map((line) => line.productId!))]));
  const origins = new Map(productRows.map((row) => [row.id, row]));
  const recorded = await db
    .select({ lineId: orderLineBatches.orderLineId, boxes: orderLineBatches.boxes, batch: stockBatches })
    .from(orderLineBatches)
    .innerJoin(stockBatches, eq(stockBatches.id, orderLineBatches.batchId))
    .where(inArray(orderLineBatches.orderLineId, held.map((line) => line.id)))
    .orderBy(asc(orderLineBatches.orderLineId), asc(stockBatches.id));
  for (const row of recorded) {
    const plan = plans.get(row.lineId) ?? { from: [], planned: false, short: 0 };
    plan.from.push(fromRow(row.batch, row.boxes, origins));
    plans.set(row.lineId, plan);
  }
  const statusOf = new Map(orders.map((order) => [order.id, order.status]));
  const toPlan = held.filter((line) => unpacked.includes(statusOf.get(line.orderId)!) && !plans.has(line.id));
  if (!toPlan.length) return plans;
  const productIds = [...new Set(toPlan.map((line) => line.productId!))];
  const batches = await db
    .select()
    .from(stockBatches)
    .where(and(inArray(stockBatches.productId, productIds), gt(stockBatches.boxesLeft, 0)))
    .orderBy(...expiryOrder);
  // Boxes left as the plan goes down the list: a copy, so the plan never touches the rows.
  const shelves = new Map<number, BatchRow[]>();
  for (const batch of batches) shelves.set(batch.productId, [...(shelves.get(batch.productId) ?? []), { ...batch }]);
  const order = new Map(orders.map((entry, index) => [entry.id, index]));
  for (const line of [...toPlan].sort((a, b) => order.get(a.orderId)! - order.get(b.orderId)! || a.id - b.id)) {
    const shelf = shelves.get(line.productId!) ?? [];
    const { taken, short } = chooseBatches(shelf, line.quantity - (line.recalledBoxes ?? 0));
    for (const part of taken) part.batch.boxesLeft -= part.boxes;
    plans.set(line.id, { from: taken.map((part) => fromRow(part.batch, part.boxes, origins)), planned: true, short: short + (line.recalledBoxes ?? 0) });
  }
  return plans;
}
