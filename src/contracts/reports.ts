import { z } from 'zod';
import { addDays, nzToday, shopTimeZone } from './dates';
import type { OrderStatus } from './order';
import { calendarDateField } from './text';

/** Report days are New Zealand calendar days: an order placed at 11 pm in Auckland belongs to that day. */
export const reportTimeZone = shopTimeZone;
export const reportGroupings = ['day', 'week', 'month'] as const;
export type ReportGrouping = (typeof reportGroupings)[number];
/** Days a range covers when none is chosen, today included. */
export const defaultReportDays = 30;
/** The longest range one report covers. */
export const maxReportYears = 2;

export { addDays, nzToday };

function addYears(date: string, years: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCFullYear(moved.getUTCFullYear() + years);
  return moved.toISOString().slice(0, 10);
}

/**
 * GET /api/admin/reports (and each CSV): a range of New Zealand days and how to group them.
 * A missing end is today; a missing start is 30 days before the end, counting both days.
 */
export const reportQuerySchema = z
  .strictObject({
    from: calendarDateField('From').optional(),
    to: calendarDateField('To').optional(),
    groupBy: z.enum(reportGroupings, { error: 'Group by day, week or month' }).default('day'),
  })
  .transform((query) => {
    const to = query.to ?? nzToday();
    return { from: query.from ?? addDays(to, 1 - defaultReportDays), to, groupBy: query.groupBy };
  })
  .superRefine((query, context) => {
    if (query.from > query.to) context.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
    else if (query.to >= addYears(query.from, maxReportYears)) {
      context.addIssue({ code: 'custom', path: ['from'], message: `A report covers at most ${maxReportYears} years: choose a later From date` });
    }
  });
export type ReportQuery = z.output<typeof reportQuerySchema>;

/** The tables of the reports screen; each has a CSV export at /api/admin/reports/{name}.csv. */
export const reportTables = ['sales', 'top-products', 'regions', 'promos', 'pre-orders', 'claims-by-batch', 'claims-by-grower'] as const;
export type ReportTable = (typeof reportTables)[number];

/** Money in dollars (GST included), with its GST part, like every API amount. */
export interface RevenueFigures {
  orders: number;
  revenue: number;
  gst: number;
}

export interface SalesPeriod extends RevenueFigures {
  /** The first day of the period (a Monday for weeks, the 1st for months), YYYY-MM-DD. */
  start: string;
  /** Orders refunded later: counted in `orders`, adding nothing to revenue. */
  refunded: number;
}

export interface TopProductRow {
  productId: number | null;
  name: string;
  units: number;
  revenue: number;
}

export interface RegionRow extends RevenueFigures {
  region: string;
}

export interface PromoUsageRow {
  code: string;
  orders: number;
  discount: number;
  revenue: number;
}

export interface PreOrderRow {
  productId: number | null;
  name: string;
  expectedAvailabilityDate: string | null;
  boxes: number;
  orders: number;
}

/** Claimed boxes of a line packed before batches were recorded, and a batch with no grower. */
export const unknownBatchLabel = 'Batch unknown';
export const unknownGrowerLabel = 'Grower unknown';

/**
 * Freshness claims against the boxes they came from. Like every table, it covers orders placed in
 * the range: the boxes packed for them from each batch (and not put back by a cancel or a refund
 * before sending, replacements included) and the claims made on those orders, whenever made.
 */
export interface ClaimFigures {
  boxesPacked: number;
  /** Claims naming boxes of this batch (or grower): a claim over two batches counts in each. */
  claims: number;
  boxesClaimed: number;
  /** Boxes claimed as a percentage of boxes packed, to one decimal; null when none were packed. */
  claimedPercent: number | null;
}

export interface BatchClaimRow extends ClaimFigures {
  /** Null for boxes packed before batches were recorded: one such row per product. */
  batchId: number | null;
  /** `batchLabel` of the batch, or "Batch unknown". */
  label: string;
  productId: number | null;
  product: string;
  /** Null when no grower was recorded or the batch is unknown. */
  grower: string | null;
}

export interface GrowerClaimRow extends ClaimFigures {
  /** Null for "Grower unknown": batches with no grower, and boxes whose batch is unknown. */
  grower: string | null;
  /** Batches of the grower that boxes were packed from (unknown batches not counted). */
  batches: number;
}

export interface SalesReport {
  from: string;
  to: string;
  groupBy: ReportGrouping;
  totals: RevenueFigures & { refunded: number };
  /** What delivery brought in (GST included): shipping with the rural surcharges, and those apart. */
  delivery: { shipping: number; ruralSurcharge: number; ruralOrders: number };
  periods: SalesPeriod[];
  topProducts: TopProductRow[];
  regions: RegionRow[];
  promos: PromoUsageRow[];
  preOrders: PreOrderRow[];
  /** Worst first: the highest share of boxes claimed; unknown batches and growers last. */
  claimsByBatch: BatchClaimRow[];
  claimsByGrower: GrowerClaimRow[];
}

/** GET /api/admin/dashboard: today's figures for the admin home screen. */
export interface DashboardView {
  revenue: { today: RevenueFigures; last7Days: RevenueFigures; last30Days: RevenueFigures };
  ordersByStatus: Array<{ status: OrderStatus; count: number }>;
  lowStockThreshold: number;
  lowStock: Array<{ productId: number; name: string; stock: number }>;
  outOfStock: Array<{ productId: number; name: string }>;
  preOrderDemand: Array<{ productId: number; name: string; preOrdered: number; allocated: number; waiting: number; limit: number | null }>;
}

/** GET /api/admin/audit: the audit log, newest first, a page at a time. */
export const auditQuerySchema = z.strictObject({
  page: z.coerce.number({ error: 'Page must be a whole number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(100_000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be a whole number' }).int('Page size must be a whole number').min(1, 'Page size must be at least 1').max(100, 'Page size must be at most 100').default(10),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

export interface AuditEntryView {
  id: number;
  at: string;
  /** Null when the entry was made by the system or its author's account is gone. */
  actor: { id: number; name: string; email: string } | null;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
}

export interface AuditPage {
  entries: AuditEntryView[];
  total: number;
  page: number;
  pageSize: number;
}
