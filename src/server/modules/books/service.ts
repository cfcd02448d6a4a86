import { and, asc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import { addDays } from '../../../contracts/dates';
import type { ExportRange } from '../../../contracts/exports';
import type { GstReturnQuery, GstReturnView } from '../../../contracts/gst-return';
import { centsToDollars, gstPartOfCents } from '../../../contracts/money';
import { reportTimeZone } from '../../../contracts/reports';
import type { Db } from '../../db/client';
import { orderEvents, orderLines, orders, refunds, users } from '../../db/schema';
import { nzMidnight } from '../reports/placed-within';
import type { SettingsService } from '../settings/service';
import { csvDocument } from '../../lib/csv';
import { BadRequest } from '../../lib/errors';

/** Xero's limit on one import file. */
export const xeroImportLimit = 500;
import { type CreditedRefund, type InvoicedOrder, type XeroContact, xeroInvoicesCsv } from './xero-invoices';

const nzDay = (instant: unknown) => sql<string>`to_char((${instant} at time zone ${reportTimeZone})::date, 'YYYY-MM-DD')`;

interface ContactRow {
  firstName: string;
  lastName: string;
  email: string;
  address: string;
  city: string;
  region: string;
  postalCode: string;
  shipStreet: string;
  shipSuburb: string;
  shipCity: string;
  shipRegion: string;
  shipPostcode: string;
  giftMessage: string | null;
}

const contactColumns = {
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  address: users.address,
  city: users.city,
  region: users.region,
  postalCode: users.postalCode,
  shipStreet: orders.shipStreet,
  shipSuburb: orders.shipSuburb,
  shipCity: orders.shipCity,
  shipRegion: orders.shipRegion,
  shipPostcode: orders.shipPostcode,
  giftMessage: orders.giftMessage,
};

/**
 * The account holder, at the address on their account, or else the one the order went to; a
 * gift went to someone else, so its address is never the buyer's.
 */
function contactOf(row: ContactRow): XeroContact {
  const name = `${row.firstName} ${row.lastName}`.trim() || row.email;
  if (row.address.trim()) return { name, email: row.email, street: row.address, suburb: '', city: row.city, region: row.region, postcode: row.postalCode };
  if (row.giftMessage !== null) return { name, email: row.email, street: '', suburb: '', city: '', region: '', postcode: '' };
  return { name, email: row.email, street: row.shipStreet, suburb: row.shipSuburb, city: row.shipCity, region: row.shipRegion, postcode: row.shipPostcode };
}

/**
 * The books over a range of New Zealand days: orders paid on its days (the first time each was
 * marked paid) are sales, and refunds given on them are credits. A claim's replacement is not a
 * sale (it costs the shopper nothing) and is left out.
 */
export class BooksService {
  constructor(private readonly deps: { db: Db; settings: SettingsService }) {}

  private paidOrders(range: ExportRange) {
    const { db } = this.deps;
    const paidAt = db
      .select({ orderId: orderEvents.orderId, at: sql`min(${orderEvents.createdAt})`.as('paid_at') })
      .from(orderEvents)
      .where(eq(orderEvents.status, 'paid'))
      .groupBy(orderEvents.orderId)
      .as('paid');
    return db
      .select({ order: orders, paidOn: nzDay(paidAt.at), ...contactColumns })
      .from(orders)
      .innerJoin(paidAt, eq(paidAt.orderId, orders.id))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(and(ne(orders.paymentMethod, 'no_charge'), gte(paidAt.at, nzMidnight(range.from)), lt(paidAt.at, nzMidnight(addDays(range.to, 1)))))
      .orderBy(asc(paidAt.at), asc(orders.id));
  }

  private refunds(range: ExportRange) {
    return this.deps.db
      .select({
        id: refunds.id,
        orderNumber: orders.number,
        amountCents: refunds.amountCents,
        reason: refunds.reason,
        refundedOn: nzDay(refunds.createdAt),
        // The order's first refund is 1, its second 2: the credit note's number.
        sequence: sql<number>`(select count(*) from ${refunds} earlier where earlier.order_id = ${refunds.orderId} and earlier.id <= ${refunds.id})::int`,
        ...contactColumns,
      })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(and(ne(orders.paymentMethod, 'no_charge'), gte(refunds.createdAt, nzMidnight(range.from)), lt(refunds.createdAt, nzMidnight(addDays(range.to, 1)))))
      .orderBy(asc(refunds.createdAt), asc(refunds.id));
  }

  /** GET /api/admin/exports/xero-invoices.csv: paid orders as invoices, refunds as credit notes. */
  async xeroInvoices(range: ExportRange): Promise<string> {
    const { db } = this.deps;
    const [settings, paidOrders, refundRows] = await Promise.all([this.deps.settings.stored(), this.paidOrders(range), this.refunds(range)]);
    // Xero takes at most 500 invoices and credit notes in one file.
    const documents = paidOrders.length + refundRows.length;
    if (documents > xeroImportLimit) {
      const message = `From ${range.from} to ${range.to} there are ${documents} invoices and credit notes, and Xero imports at most ${xeroImportLimit} in one file: choose a shorter range.`;
      throw new BadRequest(message, { from: message });
    }
    const ids = paidOrders.map((row) => row.order.id);
    const lines = ids.length === 0 ? [] : await db.select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(asc(orderLines.id));
    const linesOf = new Map<number, typeof lines>();
    for (const line of lines) linesOf.set(line.orderId, [...(linesOf.get(line.orderId) ?? []), line]);
    const invoiced: InvoicedOrder[] = paidOrders.map((row) => ({
      number: row.order.number,
      paidOn: row.paidOn,
      paymentMethod: row.order.paymentMethod,
      contact: contactOf(row),
      lines: (linesOf.get(row.order.id) ?? []).map((line) => ({ name: line.productName, unitPriceCents: line.unitPriceCents, quantity: line.quantity, isPreOrder: line.isPreOrder, origin: line.originLabel, treatment: line.treatmentLabel })),
      shippingCents: row.order.shippingCents,
      ruralSurchargeCents: row.order.ruralSurchargeCents,
      discountCents: row.order.discountCents,
      promoCode: row.order.promoCode,
      totalCents: row.order.totalCents,
      gstCents: row.order.gstCents,
    }));
    const credited: CreditedRefund[] = refundRows.map((row) => ({
      orderNumber: row.orderNumber,
      sequence: row.sequence,
      refundedOn: row.refundedOn,
      reason: row.reason,
      amountCents: row.amountCents,
      contact: contactOf(row),
    }));
    return xeroInvoicesCsv(invoiced, credited, settings.xeroSalesAccount);
  }

  private async gstFacts(query: GstReturnQuery) {
    const [paid, given] = await Promise.all([this.paidOrders(query), this.refunds(query)]);
    return {
      sales: paid.map((row) => ({ number: row.order.number, day: row.paidOn, totalCents: row.order.totalCents, gstCents: row.order.gstCents })),
      refunds: given.map((row) => ({ number: row.orderNumber, day: row.refundedOn, reason: row.reason, amountCents: row.amountCents })),
    };
  }

  /** GET /api/admin/reports/gst-return: the sales side of the period's GST return, box by box. */
  async gstReturn(query: GstReturnQuery): Promise<GstReturnView> {
    const { sales, refunds: given } = await this.gstFacts(query);
    const totalSales = sales.reduce((sum, sale) => sum + sale.totalCents, 0);
    const ordersGst = sales.reduce((sum, sale) => sum + sale.gstCents, 0);
    const gstOnSales = gstPartOfCents(totalSales);
    const refundsTotal = given.reduce((sum, refund) => sum + refund.amountCents, 0);
    const refundsGst = gstPartOfCents(refundsTotal);
    const refundsGstParts = given.reduce((sum, refund) => sum + gstPartOfCents(refund.amountCents), 0);
    const d = centsToDollars;
    return {
      period: query.period,
      from: query.from,
      to: query.to,
      totalSales: d(totalSales),
      zeroRated: 0,
      taxableSales: d(totalSales),
      gstOnSales: d(gstOnSales),
      adjustments: 0,
      totalGstCollected: d(gstOnSales),
      ordersGst: d(ordersGst),
      roundingDifference: d(gstOnSales - ordersGst),
      orders: sales.length,
      refundsTotal: d(refundsTotal),
      refunds: given.length,
      refundsGst: d(refundsGst),
      refundsGstParts: d(refundsGstParts),
      refundsRoundingDifference: d(refundsGst - refundsGstParts),
    };
  }

  /** The orders and refunds behind each figure of the GST return, one line each. */
  async gstReturnCsv(query: GstReturnQuery): Promise<string> {
    const { sales, refunds: given } = await this.gstFacts(query);
    const d = centsToDollars;
    return csvDocument(
      ['Box', 'Order', 'Day', 'What', 'Amount (NZD incl. GST)', 'GST part (NZD)'],
      [
        ...sales.map((sale) => ['5', sale.number, sale.day, 'Sale (paid)', d(sale.totalCents), d(sale.gstCents)]),
        ...given.map((refund) => ['13', refund.number, refund.day, `Refund: ${refund.reason}`, d(refund.amountCents), d(gstPartOfCents(refund.amountCents))]),
      ],
    );
  }
}
