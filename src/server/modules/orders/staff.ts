import { and, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { AdminOrderPage, AdminOrderQuery, AdminOrderRow } from '../../../contracts/admin-orders';
import { centsToDollars } from '../../../contracts/money';
import { unsentOrderStatuses } from '../../../contracts/order';
import type { Db } from '../../db/client';
import { orderLines, orders, users } from '../../db/schema';
import { csvDocument } from '../../lib/csv';
import { containsPattern } from '../../lib/search';

/** Most rows one CSV export holds; the filters narrow anything larger. */
export const csvRowLimit = 50_000;

/** The order's pre-order lines, for the filters and columns (a correlated subquery on `orders`). */
const preOrderLines = sql`select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id} and ${orderLines.isPreOrder}`;

/** The filters of the staff's order list; dates are New Zealand calendar days. */
function whereOf(query: Omit<AdminOrderQuery, 'page' | 'pageSize'>): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, sql`(${query.from}::date)::timestamp at time zone 'Pacific/Auckland'`));
  if (query.to) conditions.push(lt(orders.createdAt, sql`(${query.to}::date + 1)::timestamp at time zone 'Pacific/Auckland'`));
  // A pickup order's delivery date is its pickup day: one day's work, whichever way the boxes go.
  if (query.day) conditions.push(eq(orders.deliveryDate, query.day));
  if (query.fulfilment) conditions.push(eq(orders.fulfilment, query.fulfilment));
  if (query.preOrder === 'yes') conditions.push(sql`exists (${preOrderLines})`);
  if (query.preOrder === 'waiting') conditions.push(sql`exists (${preOrderLines} and ${orderLines.allocatedAt} is null)`);
  if (query.preOrder === 'no') conditions.push(sql`not exists (${preOrderLines})`);
  if (query.q) {
    const pattern = containsPattern(query.q);
    conditions.push(
      or(
        ilike(orders.number, pattern),
        ilike(orders.shipName, pattern),
        ilike(users.email, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

const rowColumns = {
  order: orders,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  itemCount: sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
  preOrder: sql<boolean>`exists (${preOrderLines})`,
  waitingForStock: sql<boolean>`exists (${preOrderLines} and ${orderLines.allocatedAt} is null)`,
};

type Row = { order: typeof orders.$inferSelect; email: string; firstName: string; lastName: string; itemCount: number; preOrder: boolean; waitingForStock: boolean };

function toRow(row: Row): AdminOrderRow {
  return {
    number: row.order.number,
    placedAt: row.order.createdAt.toISOString(),
    status: row.order.status,
    paymentMethod: row.order.paymentMethod,
    customerName: `${row.firstName} ${row.lastName}`.trim(),
    customerEmail: row.email,
    region: row.order.shipRegion,
    total: centsToDollars(row.order.totalCents),
    gst: centsToDollars(row.order.gstCents),
    itemCount: Number(row.itemCount),
    gift: row.order.giftMessage !== null,
    fulfilment: row.order.fulfilment,
    deliveryDate: row.order.deliveryDate,
    preOrder: Boolean(row.preOrder),
    waitingForStock: Boolean(row.waitingForStock),
    onHold: row.order.heldReason !== null && unsentOrderStatuses.includes(row.order.status),
  };
}

/** One page of orders, newest first, with the count of all that match (paginated in the database). */
export async function listOrdersForStaff(db: Db, query: AdminOrderQuery): Promise<AdminOrderPage> {
  const where = whereOf(query);
  const [rows, [counted]] = await Promise.all([
    db
      .select(rowColumns)
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(orders).innerJoin(users, eq(users.id, orders.userId)).where(where),
  ]);
  return { orders: rows.map(toRow), total: Number(counted?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

/** Every order the filters match, as CSV with money in dollars (GST included, and its part). */
export async function ordersCsv(db: Db, query: Omit<AdminOrderQuery, 'page' | 'pageSize'>): Promise<string> {
  const rows = await db
    .select(rowColumns)
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(whereOf(query))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(csvRowLimit);
  // Shipping is what the order paid for delivery, the rural surcharge included; that part has a column of its own.
  const header = ['Order', 'Placed (UTC)', 'Status', 'Payment', 'Customer', 'Email', 'Region', 'Boxes', 'Subtotal', 'Shipping', 'Rural surcharge', 'Discount', 'Total', 'GST', 'Delivery date'];
  return csvDocument(
    header,
    rows.map(({ order, email, firstName, lastName, itemCount }) => [
      order.number,
      order.createdAt.toISOString(),
      order.status,
      order.paymentMethod,
      `${firstName} ${lastName}`.trim(),
      email,
      order.shipRegion,
      String(itemCount),
      centsToDollars(order.subtotalCents),
      centsToDollars(order.shippingCents),
      centsToDollars(order.ruralSurchargeCents),
      centsToDollars(order.discountCents),
      centsToDollars(order.totalCents),
      centsToDollars(order.gstCents),
      order.deliveryDate ?? '',
    ]),
  );
}
