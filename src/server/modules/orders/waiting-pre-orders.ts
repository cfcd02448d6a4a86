import { and, eq, exists, inArray, isNull, sql } from 'drizzle-orm';
import { unsentOrderStatuses } from '../../../contracts/order';
import type { Db, Tx } from '../../db/client';
import { orderLines, orders } from '../../db/schema';

/** A pre-order line of the product that has no boxes from a shipment yet. */
export const unservedLineOf = (productId: number) => and(eq(orderLines.productId, productId), eq(orderLines.isPreOrder, true), isNull(orderLines.allocatedAt));

/** An order not sent yet with such a line: it waits for the product's shipment (decision 0015). */
export const waitsFor = (db: Db | Tx, productId: number) =>
  and(inArray(orders.status, unsentOrderStatuses), exists(db.select({ one: sql`1` }).from(orderLines).where(and(eq(orderLines.orderId, orders.id), unservedLineOf(productId)))));

/** The lines and boxes still waiting for the product's shipment. */
export async function waitingBoxes(db: Db | Tx, productId: number): Promise<{ lines: number; boxes: number }> {
  const [row] = await db
    .select({ lines: sql<number>`count(*)::int`, boxes: sql<number>`coalesce(sum(${orderLines.quantity}), 0)::int` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(unservedLineOf(productId), inArray(orders.status, unsentOrderStatuses)));
  return { lines: Number(row?.lines ?? 0), boxes: Number(row?.boxes ?? 0) };
}
