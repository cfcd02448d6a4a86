import { and, type AnyColumn, asc, desc, eq, gte, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { centsToDollars } from '../../../contracts/money';
import { countedOrderStatuses, earningOrderStatuses, liveOrderStatuses, orderStatuses } from '../../../contracts/order';
import {
  addDays,
  type AuditPage,
  type AuditQuery,
  type DashboardView,
  nzToday,
  type PreOrderRow,
  type PromoUsageRow,
  type RegionRow,
  type ReportGrouping,
  type ReportQuery,
  type ReportTable,
  reportTimeZone,
  type RevenueFigures,
  type SalesPeriod,
  type SalesReport,
  type TopProductRow,
  unknownGrowerLabel,
} from '../../../contracts/reports';
import type { Db } from '../../db/client';
import { auditLog, orderLines, orders, products, refunds, users } from '../../db/schema';
import { csvDocument, type CsvValue } from '../../lib/csv';
import type { InventoryService } from '../inventory/service';
import type { SettingsService } from '../settings/service';
import { claimsByBatch } from './claims-by-batch';
import { nzMidnight, placedWithin } from './placed-within';

/**
 * Which orders are sales: every order past payment. An order waiting for payment is not money yet
 * and a cancelled one never was. A refunded order still counts as an order (the sale happened and
 * shows in order counts) but adds nothing to revenue, GST, discounts or boxes sold: the money went back.
 */
const countedStatuses = [...countedOrderStatuses];
const earningStatuses = [...earningOrderStatuses];
/** A claim's replacement (no charge) is work to pack, not a sale: sales figures leave it out (claims by batch count its boxes as packed). */
const isSale = ne(orders.paymentMethod, 'no_charge');

const earned = (cents: AnyColumn) => sql`case when ${orders.status} = 'refunded' then 0 else ${cents} end`;
/** Revenue net of refunds: an order's total less what was given back on it (a claim's part refund), or nothing once refunded whole. */
const earnedNet = sql`case when ${orders.status} = 'refunded' then 0 else ${orders.totalCents} - (select coalesce(sum(${refunds.amountCents}), 0) from ${refunds} where ${refunds.orderId} = ${orders.id}) end`;
const sumOf = (value: SQL) => sql<string>`coalesce(sum(${value}), 0)::bigint`;
const dollars = (cents: string | number) => centsToDollars(Number(cents));

const truncUnits: Record<ReportGrouping, SQL> = { day: sql.raw(`'day'`), week: sql.raw(`'week'`), month: sql.raw(`'month'`) };

/** The first day of the period a date falls in: weeks start on Monday, months on the 1st. */
function periodStart(date: string, grouping: ReportGrouping): string {
  if (grouping === 'day') return date;
  if (grouping === 'month') return `${date.slice(0, 8)}01`;
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

function nextPeriod(start: string, grouping: ReportGrouping): string {
  if (grouping === 'day') return addDays(start, 1);
  if (grouping === 'week') return addDays(start, 7);
  const moved = new Date(`${start}T00:00:00Z`);
  moved.setUTCMonth(moved.getUTCMonth() + 1);
  return moved.toISOString().slice(0, 10);
}

/** Sales figures over a range of New Zealand days, the dashboard's numbers and the audit log, for staff. */
export class ReportService {
  constructor(private readonly deps: { db: Db; inventory: InventoryService; settings: SettingsService }) {}

  async salesReport(query: ReportQuery): Promise<SalesReport> {
    const [periods, topProducts, regions, promos, preOrders, delivery, claimed] = await Promise.all([
      this.periods(query),
      this.topProducts(query),
      this.regions(query),
      this.promos(query),
      this.preOrders(query),
      this.delivery(query),
      claimsByBatch(this.deps.db, query),
    ]);
    const totals = { orders: 0, revenue: 0, gst: 0, refunded: 0 };
    for (const period of periods) {
      totals.orders += period.orders;
      totals.refunded += period.refunded;
      totals.revenue += Math.round(period.revenue * 100);
      totals.gst += Math.round(period.gst * 100);
    }
    return {
      from: query.from,
      to: query.to,
      groupBy: query.groupBy,
      totals: { ...totals, revenue: centsToDollars(totals.revenue), gst: centsToDollars(totals.gst) },
      delivery,
      periods,
      topProducts,
      regions,
      promos,
      preOrders,
      claimsByBatch: claimed.byBatch,
      claimsByGrower: claimed.byGrower,
    };
  }

  /** Shipping charged on the range's sales, the rural surcharges in it, and how many orders paid one. */
  async delivery({ from, to }: ReportQuery): Promise<SalesReport['delivery']> {
    const [row] = await this.deps.db
      .select({
        shipping: sumOf(earned(orders.shippingCents)),
        rural: sumOf(earned(orders.ruralSurchargeCents)),
        ruralOrders: sql<number>`(count(*) filter (where ${orders.ruralSurchargeCents} > 0 and ${orders.status} <> 'refunded'))::int`,
      })
      .from(orders)
      .where(and(placedWithin(from, to), inArray(orders.status, countedStatuses), isSale));
    return { shipping: dollars(row?.shipping ?? 0), ruralSurcharge: dollars(row?.rural ?? 0), ruralOrders: row?.ruralOrders ?? 0 };
  }

  /** Every period of the range, empty ones included so a chart shows the quiet days. */
  async periods({ from, to, groupBy }: ReportQuery): Promise<SalesPeriod[]> {
    const period = sql<string>`to_char(date_trunc(${truncUnits[groupBy]}, ${orders.createdAt} at time zone ${reportTimeZone}), 'YYYY-MM-DD')`;
    const rows = await this.deps.db
      .select({
        start: period,
        orders: sql<number>`count(*)::int`,
        refunded: sql<number>`(count(*) filter (where ${orders.status} = 'refunded'))::int`,
        revenue: sumOf(earnedNet),
        gst: sumOf(earned(orders.gstCents)),
      })
      .from(orders)
      .where(and(placedWithin(from, to), inArray(orders.status, countedStatuses), isSale))
      .groupBy(sql`1`);
    const found = new Map(rows.map((row) => [row.start, row]));
    const periods: SalesPeriod[] = [];
    for (let start = periodStart(from, groupBy); start <= to; start = nextPeriod(start, groupBy)) {
      const row = found.get(start);
      periods.push({ start, orders: row?.orders ?? 0, refunded: row?.refunded ?? 0, revenue: dollars(row?.revenue ?? 0), gst: dollars(row?.gst ?? 0) });
    }
    return periods;
  }

  /** Boxes sold and their value at the price sold (before order-wide discounts, without shipping). */
  async topProducts({ from, to }: ReportQuery): Promise<TopProductRow[]> {
    const revenue = sumOf(sql`${orderLines.unitPriceCents} * ${orderLines.quantity}`);
    const units = sql<number>`sum(${orderLines.quantity})::int`;
    const rows = await this.deps.db
      .select({ productId: orderLines.productId, name: sql<string>`coalesce(max(${products.name}), max(${orderLines.productName}))`, units, revenue })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .leftJoin(products, eq(products.id, orderLines.productId))
      .where(and(placedWithin(from, to), inArray(orders.status, earningStatuses), isSale))
      // A deleted product's lines are told apart by the name they were sold under.
      .groupBy(orderLines.productId, sql`case when ${orderLines.productId} is null then ${orderLines.productName} end`)
      .orderBy(desc(revenue), desc(units), asc(sql`2`));
    return rows.map((row) => ({ productId: row.productId, name: row.name, units: Number(row.units), revenue: dollars(row.revenue) }));
  }

  async regions({ from, to }: ReportQuery): Promise<RegionRow[]> {
    const revenue = sumOf(earnedNet);
    const rows = await this.deps.db
      .select({ region: orders.shipRegion, orders: sql<number>`count(*)::int`, revenue, gst: sumOf(earned(orders.gstCents)) })
      .from(orders)
      .where(and(placedWithin(from, to), inArray(orders.status, countedStatuses), isSale))
      .groupBy(orders.shipRegion)
      .orderBy(desc(revenue), asc(orders.shipRegion));
    return rows.map((row) => ({ region: row.region, orders: Number(row.orders), revenue: dollars(row.revenue), gst: dollars(row.gst) }));
  }

  /** Codes as typed on the orders, so a promo deleted since still shows what it gave away. */
  async promos({ from, to }: ReportQuery): Promise<PromoUsageRow[]> {
    const code = sql<string>`upper(${orders.promoCode})`;
    const revenue = sumOf(earnedNet);
    const rows = await this.deps.db
      .select({ code, orders: sql<number>`count(*)::int`, discount: sumOf(earned(orders.discountCents)), revenue })
      .from(orders)
      .where(and(placedWithin(from, to), inArray(orders.status, countedStatuses), isNotNull(orders.promoCode), isSale))
      .groupBy(code)
      .orderBy(desc(sql`count(*)`), asc(code));
    return rows.map((row) => ({ code: row.code, orders: Number(row.orders), discount: dollars(row.discount), revenue: dollars(row.revenue) }));
  }

  /**
   * Boxes owed on pre-orders placed in the range, by product and expected date. Unpaid orders are
   * included: their boxes are held against the pre-order limit until they are paid or cancelled.
   */
  async preOrders({ from, to }: ReportQuery): Promise<PreOrderRow[]> {
    const expected = orderLines.expectedAvailabilityDate;
    const rows = await this.deps.db
      .select({
        productId: orderLines.productId,
        name: sql<string>`coalesce(max(${products.name}), max(${orderLines.productName}))`,
        expected,
        boxes: sql<number>`sum(${orderLines.quantity})::int`,
        orders: sql<number>`count(distinct ${orderLines.orderId})::int`,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .leftJoin(products, eq(products.id, orderLines.productId))
      .where(and(placedWithin(from, to), inArray(orders.status, [...liveOrderStatuses]), eq(orderLines.isPreOrder, true)))
      .groupBy(orderLines.productId, expected, sql`case when ${orderLines.productId} is null then ${orderLines.productName} end`)
      .orderBy(sql`${expected} asc nulls last`, asc(sql`2`));
    return rows.map((row) => ({ productId: row.productId, name: row.name, expectedAvailabilityDate: row.expected, boxes: Number(row.boxes), orders: Number(row.orders) }));
  }

  /** One report table as CSV, money in dollars with GST included. */
  async csv(table: ReportTable, query: ReportQuery): Promise<string> {
    const count = (value: number) => String(value);
    const date = (value: string | null) => value ?? '';
    const percent = (value: number | null) => (value === null ? '' : value.toFixed(1));
    const tables: Record<ReportTable, () => Promise<[string[], CsvValue[][]]>> = {
      sales: async () => [
        ['Period starting', 'Orders', 'Refunded orders', 'Revenue (NZD incl. GST)', 'GST'],
        (await this.periods(query)).map((p) => [p.start, count(p.orders), count(p.refunded), p.revenue, p.gst]),
      ],
      'top-products': async () => [['Product', 'Boxes sold', 'Revenue (NZD incl. GST)'], (await this.topProducts(query)).map((p) => [p.name, count(p.units), p.revenue])],
      regions: async () => [['Region', 'Orders', 'Revenue (NZD incl. GST)', 'GST'], (await this.regions(query)).map((r) => [r.region, count(r.orders), r.revenue, r.gst])],
      promos: async () => [['Code', 'Orders', 'Discount given (NZD)', 'Revenue (NZD incl. GST)'], (await this.promos(query)).map((p) => [p.code, count(p.orders), p.discount, p.revenue])],
      'pre-orders': async () => [
        ['Product', 'Expected availability', 'Boxes', 'Orders'],
        (await this.preOrders(query)).map((p) => [p.name, date(p.expectedAvailabilityDate), count(p.boxes), count(p.orders)]),
      ],
      'claims-by-batch': async () => [
        ['Batch', 'Product', 'Grower', 'Boxes packed', 'Claims', 'Boxes claimed', 'Claimed share (%)'],
        (await claimsByBatch(this.deps.db, query)).byBatch.map((b) => [b.label, b.product, b.grower ?? unknownGrowerLabel, count(b.boxesPacked), count(b.claims), count(b.boxesClaimed), percent(b.claimedPercent)]),
      ],
      'claims-by-grower': async () => [
        ['Grower', 'Batches', 'Boxes packed', 'Claims', 'Boxes claimed', 'Claimed share (%)'],
        (await claimsByBatch(this.deps.db, query)).byGrower.map((g) => [g.grower ?? unknownGrowerLabel, count(g.batches), count(g.boxesPacked), count(g.claims), count(g.boxesClaimed), percent(g.claimedPercent)]),
      ],
    };
    const [header, rows] = await tables[table]();
    return csvDocument(header, rows);
  }

  /** Revenue today and over the last 7 and 30 New Zealand days (today included), orders by status, stock to watch. */
  async dashboard(now: Date = new Date()): Promise<DashboardView> {
    const { db, inventory, settings } = this.deps;
    const today = nzToday(now);
    const since = { today: nzMidnight(today), week: nzMidnight(addDays(today, -6)), month: nzMidnight(addDays(today, -29)) };
    const window = (start: SQL) => ({
      orders: sql<number>`(count(*) filter (where ${orders.createdAt} >= ${start}))::int`,
      revenue: sql<string>`coalesce(sum(${earnedNet}) filter (where ${orders.createdAt} >= ${start}), 0)::bigint`,
      gst: sql<string>`coalesce(sum(${earned(orders.gstCents)}) filter (where ${orders.createdAt} >= ${start}), 0)::bigint`,
    });
    const [[sums], statusRows, stock, stored] = await Promise.all([
      db
        .select({ today: window(since.today), week: window(since.week), month: window(since.month) })
        .from(orders)
        .where(and(gte(orders.createdAt, since.month), inArray(orders.status, countedStatuses), isSale)),
      db.select({ status: orders.status, count: sql<number>`count(*)::int` }).from(orders).groupBy(orders.status),
      inventory.list(),
      settings.stored(),
    ]);
    const figures = (figure: { orders: number; revenue: string; gst: string } | undefined): RevenueFigures => ({
      orders: Number(figure?.orders ?? 0),
      revenue: dollars(figure?.revenue ?? 0),
      gst: dollars(figure?.gst ?? 0),
    });
    const counts = new Map(statusRows.map((row) => [row.status, Number(row.count)]));
    // Hidden products are off the shelf (or archived): their stock needs no attention today.
    const onSale = stock.filter((row) => !row.isHidden && !row.isPreOrder);
    return {
      revenue: { today: figures(sums?.today), last7Days: figures(sums?.week), last30Days: figures(sums?.month) },
      ordersByStatus: orderStatuses.map((status) => ({ status, count: counts.get(status) ?? 0 })),
      lowStockThreshold: stored.lowStockThreshold,
      lowStock: onSale.filter((row) => row.isLowStock && row.stock > 0).map((row) => ({ productId: row.productId, name: row.name, stock: row.stock })),
      outOfStock: onSale.filter((row) => row.stock === 0).map((row) => ({ productId: row.productId, name: row.name })),
      preOrderDemand: stock
        .filter((row) => row.isPreOrder || row.preOrdered > 0)
        .map((row) => ({ productId: row.productId, name: row.name, preOrdered: row.preOrdered, allocated: row.allocated, waiting: row.waiting, limit: row.preOrderLimit })),
    };
  }

  /** The audit log, newest first, with who made each change. */
  async audit({ page, pageSize }: AuditQuery): Promise<AuditPage> {
    const { db } = this.deps;
    const [rows, [counted]] = await Promise.all([
      db
        .select({ entry: auditLog, firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      db.select({ n: sql<number>`count(*)::int` }).from(auditLog),
    ]);
    const entries = rows.map(({ entry, firstName, lastName, email }) => ({
      id: Number(entry.id),
      at: entry.createdAt.toISOString(),
      actor: entry.actorUserId === null || email === null ? null : { id: entry.actorUserId, name: `${firstName ?? ''} ${lastName ?? ''}`.trim(), email },
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId,
      before: entry.before,
      after: entry.after,
    }));
    return { entries, total: Number(counted?.n ?? 0), page, pageSize };
  }
}
