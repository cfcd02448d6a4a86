import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { addDays, nzToday } from '../../../contracts/dates';
import { weekdayOf } from '../../../contracts/days';
import {
  type AdminSubscriptionDetail,
  type AdminSubscriptionSummary,
  forecastWeeks,
  type SubscriptionForecast,
  type SubscriptionHistoryEntry,
  subscriptionStatuses,
  type SubscriptionStatus,
} from '../../../contracts/subscriptions';
import type { Db } from '../../db/client';
import { orders, products, subscriptionDeliveries, subscriptions, users } from '../../db/schema';
import { csvDocument } from '../../lib/csv';
import { NotFound } from '../../lib/errors';
import type { DeliveryService } from '../delivery/service';
import { plannedDeliveries } from './reserved';
import type { SubscriptionService } from './service';

/** The most subscriptions one page of the staff list shows. */
export const adminPageSize = 50;

/** Staff's side of season boxes: every subscription with its history, and the forecast an importer orders fruit by. */
export class SubscriptionAdmin {
  constructor(private readonly deps: { db: Db; delivery: DeliveryService; subscriptions: SubscriptionService; clock: () => Date }) {}

  async list(query: { status?: SubscriptionStatus; page: number }): Promise<{ subscriptions: AdminSubscriptionSummary[]; total: number; page: number; pageSize: number; counts: Record<SubscriptionStatus, number> }> {
    const { db } = this.deps;
    const where = query.status ? eq(subscriptions.status, query.status) : undefined;
    const [rows, totals] = await Promise.all([
      db
        .select({ sub: subscriptions, productName: products.name, email: users.email, firstName: users.firstName, lastName: users.lastName, username: users.username })
        .from(subscriptions)
        .innerJoin(products, eq(products.id, subscriptions.productId))
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(where)
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
        .limit(adminPageSize)
        .offset((query.page - 1) * adminPageSize),
      db.select({ status: subscriptions.status, n: sql<number>`count(*)::int` }).from(subscriptions).groupBy(subscriptions.status),
    ]);
    const counts = Object.fromEntries(subscriptionStatuses.map((status) => [status, 0])) as Record<SubscriptionStatus, number>;
    for (const row of totals) counts[row.status] = row.n;
    const next = await this.nextDates(rows.map((row) => row.sub.id));
    return {
      subscriptions: rows.map((row) => summaryOf(row, next.get(row.sub.id) ?? null)),
      total: query.status ? counts[query.status] : Object.values(counts).reduce((sum, n) => sum + n, 0),
      page: query.page,
      pageSize: adminPageSize,
      counts,
    };
  }

  async detail(id: number): Promise<AdminSubscriptionDetail> {
    const { db } = this.deps;
    const [row] = await db
      .select({ sub: subscriptions, productName: products.name, email: users.email, firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(subscriptions)
      .innerJoin(products, eq(products.id, subscriptions.productId))
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(subscriptions.id, id));
    if (!row) throw new NotFound('Season box not found.');
    const view = await this.deps.subscriptions.view(row.sub);
    const past = await db
      .select({ delivery: subscriptionDeliveries, orderNumber: orders.number, orderStatus: orders.status, totalCents: orders.totalCents })
      .from(subscriptionDeliveries)
      .leftJoin(orders, eq(orders.id, subscriptionDeliveries.orderId))
      .where(and(eq(subscriptionDeliveries.subscriptionId, id), sql`${subscriptionDeliveries.state} is not null`))
      .orderBy(desc(subscriptionDeliveries.deliveryDate));
    const history: SubscriptionHistoryEntry[] = past.map((entry) => {
      const unpaid = entry.delivery.state === 'ordered' && entry.orderStatus === 'cancelled';
      return {
        date: entry.delivery.deliveryDate,
        state: entry.delivery.state!,
        note: unpaid ? 'Order cancelled (not paid by the packing cut-off, or cancelled)' : entry.delivery.note,
        orderNumber: entry.orderNumber,
        orderStatus: entry.orderStatus,
        totalCents: entry.totalCents,
      };
    });
    return { ...summaryOf(row, view.coming.find((box) => box.state === 'scheduled')?.date ?? null), subscription: view, history };
  }

  /** Boxes per product per delivery date for the next eight weeks, from the subscriptions as they stand (skips and changes counted). */
  async forecast(): Promise<SubscriptionForecast> {
    const settings = await this.deps.delivery.settings();
    const from = nzToday(this.deps.clock());
    const to = addDays(from, forecastWeeks * 7 - 1);
    const planned = await plannedDeliveries(this.deps.db, settings, from, to);
    const dates = [...new Set(planned.map((box) => box.date))].sort();
    const names = new Map<number, string>();
    const ids = [...new Set(planned.map((box) => box.productId))];
    if (ids.length) for (const row of await this.deps.db.select({ id: products.id, name: products.name }).from(products).where(inArray(products.id, ids))) names.set(row.id, row.name);
    const byProduct = new Map<number, Record<string, number>>();
    for (const box of planned) {
      const boxes = byProduct.get(box.productId) ?? {};
      boxes[box.date] = (boxes[box.date] ?? 0) + box.quantity;
      byProduct.set(box.productId, boxes);
    }
    const rows = [...byProduct.entries()]
      .map(([productId, boxes]) => ({ productId, productName: names.get(productId) ?? `Product ${productId}`, boxes, total: Object.values(boxes).reduce((sum, n) => sum + n, 0) }))
      .sort((a, b) => a.productName.localeCompare(b.productName) || a.productId - b.productId);
    return { from, to, dates, products: rows };
  }

  /** The forecast as a spreadsheet: a row per product and delivery date. */
  async forecastCsv(): Promise<string> {
    const forecast = await this.forecast();
    const rows = forecast.products.flatMap((row) => forecast.dates.filter((date) => row.boxes[date]).map((date) => [date, weekdayOf(date), String(row.productId), row.productName, String(row.boxes[date]!)] as const));
    return csvDocument(['Delivery date', 'Weekday', 'Product id', 'Product', 'Boxes'], rows);
  }

  /** Each subscription's next box still to come (none when paused without a day, cancelled or ended). */
  private async nextDates(ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const settings = await this.deps.delivery.settings();
    const from = nzToday(this.deps.clock());
    const next = new Map<number, string>();
    for (const box of await plannedDeliveries(this.deps.db, settings, from, addDays(from, 8 * 7))) {
      if (ids.includes(box.subscriptionId) && !next.has(box.subscriptionId)) next.set(box.subscriptionId, box.date);
    }
    return next;
  }
}

type ListRow = { sub: typeof subscriptions.$inferSelect; productName: string; email: string; firstName: string; lastName: string; username: string };

function summaryOf(row: ListRow, nextDeliveryDate: string | null): AdminSubscriptionSummary {
  return {
    id: row.sub.id,
    status: row.sub.status,
    customer: { id: row.sub.userId, name: `${row.firstName} ${row.lastName}`.trim() || row.username, email: row.email },
    productId: row.sub.productId,
    productName: row.productName,
    quantity: row.sub.quantity,
    every: row.sub.every,
    weekday: weekdayOf(row.sub.firstDeliveryDate),
    paymentMethod: row.sub.paymentMethod,
    nextDeliveryDate,
    createdAt: row.sub.createdAt.toISOString(),
  };
}

