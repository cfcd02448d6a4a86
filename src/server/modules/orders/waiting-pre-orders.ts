import { and, eq, exists, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { liveOrderStatuses, unsentOrderStatuses } from '../../../contracts/order';
import type { Db, Tx } from '../../db/client';
import { orderLines, orders, products } from '../../db/schema';

/** A pre-order line of the product that has no boxes from a shipment yet. */
export const unservedLineOf = (productId: number) => and(eq(orderLines.productId, productId), eq(orderLines.isPreOrder, true), isNull(orderLines.allocatedAt));

/** An order not sent yet with such a line: it waits for the product's shipment (decision 0015). */
export const waitsFor = (db: Db | Tx, productId: number) =>
  and(inArray(orders.status, unsentOrderStatuses), exists(db.select({ one: sql`1` }).from(orderLines).where(and(eq(orderLines.orderId, orders.id), unservedLineOf(productId)))));

/**
 * The status of an order line's order, looked up by the order's key for each line. Counting one
 * product's lines this way reads only that product's lines, whatever the planner's statistics say:
 * joined instead, a planner that believes both tables small (the embedded database between two
 * analyses, in a rush on one variety) walks every order for every line (decision 0040).
 */
const statusOfLineOrder = sql`(select ${orders.status} from ${orders} where ${orders.id} = ${orderLines.orderId})`;

/** The line's order has one of the statuses (a fixed, non-empty list: SQL has no empty `in ()`). */
function lineOrderIn(statuses: readonly string[]): SQL {
  if (!statuses.length) throw new Error('lineOrderIn needs at least one status');
  return sql`${statusOfLineOrder} in ${statuses}`;
}

/** The lines and boxes still waiting for the product's shipment. */
export async function waitingBoxes(db: Db | Tx, productId: number): Promise<{ lines: number; boxes: number }> {
  const [row] = await db
    .select({ lines: sql<number>`count(*)::int`, boxes: sql<number>`coalesce(sum(${orderLines.quantity}), 0)::int` })
    .from(orderLines)
    .where(and(unservedLineOf(productId), lineOrderIn(unsentOrderStatuses)));
  return { lines: Number(row?.lines ?? 0), boxes: Number(row?.boxes ?? 0) };
}

/** A pre-order line of a live order: its boxes count against the product's pre-order limit. */
export const livePreOrderLine = and(eq(orderLines.isPreOrder, true), lineOrderIn(liveOrderStatuses));

/**
 * Boxes pre-ordered in live orders, per product (of one product when `productId` is given). One
 * product's are counted line by line (above); every product's by a join, which the planner, with
 * the tables analyzed, makes one pass over each table rather than a lookup for each of the shop's
 * pre-order lines.
 */
export async function preOrderedBoxes(db: Db | Tx, productId?: number): Promise<Map<number, number>> {
  const boxes = sql<number>`sum(${orderLines.quantity})::int`;
  const rows =
    productId === undefined
      ? await db
          .select({ productId: orderLines.productId, boxes })
          .from(orderLines)
          .innerJoin(orders, eq(orders.id, orderLines.orderId))
          .where(and(eq(orderLines.isPreOrder, true), inArray(orders.status, [...liveOrderStatuses])))
          .groupBy(orderLines.productId)
      : await db
          .select({ productId: orderLines.productId, boxes })
          .from(orderLines)
          .where(and(livePreOrderLine, eq(orderLines.productId, productId)))
          .groupBy(orderLines.productId);
  return new Map(rows.flatMap((row) => (row.productId === null ? [] : [[row.productId, Number(row.boxes)] as const])));
}

/** Boxes of the products row pre-ordered in live orders, counted in the same statement (one product's lines, as above). */
export const preOrderedOfRow = sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines}
  where ${orderLines.productId} = ${products.id} and ${livePreOrderLine})`;

/**
 * The products row can be bought at `now` (the shop's clock): shown, and in stock, or a pre-order
 * that has opened with room under its limit. The opposite of what "Notify me" is offered for
 * (`waitlistOpen`).
 */
export const buyableAt = (now: Date) => sql`(not ${products.isHidden} and (
  (not ${products.isPreOrder} and ${products.stock} > 0)
  or (${products.isPreOrder} and (${products.preOrdersOpenAt} is null or ${products.preOrdersOpenAt} <= ${now.toISOString()}::timestamptz)
    and (${products.preOrderLimit} is null or ${products.preOrderLimit} > ${preOrderedOfRow}))))`;
