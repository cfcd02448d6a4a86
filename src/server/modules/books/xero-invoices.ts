import { gstPartOfCents } from '../../../contracts/money';
import { paymentMethodLabels, type PaymentMethod } from '../../../contracts/order';
import { xeroInvoiceColumns, xeroTaxTypes } from '../../../contracts/exports';
import { csvDocument, type CsvValue } from '../../lib/csv';

/** Who an invoice is made out to: the account holder, who paid. */
export interface XeroContact {
  name: string;
  email: string;
  street: string;
  suburb: string;
  city: string;
  region: string;
  postcode: string;
}

/** A paid order as its invoice needs it; money in cents, GST included. */
export interface InvoicedOrder {
  number: string;
  /** The New Zealand day it was paid (YYYY-MM-DD): the invoice's date. */
  paidOn: string;
  paymentMethod: PaymentMethod;
  contact: XeroContact;
  lines: Array<{ name: string; unitPriceCents: number; quantity: number; isPreOrder: boolean; origin?: string | null; treatment?: string | null }>;
  shippingCents: number;
  ruralSurchargeCents: number;
  discountCents: number;
  promoCode: string | null;
  totalCents: number;
  gstCents: number;
}

/** Money given back on an order: a credit note of its own. */
export interface CreditedRefund {
  orderNumber: string;
  /** 1 for the order's first refund, 2 for its second... */
  sequence: number;
  refundedOn: string;
  reason: string;
  amountCents: number;
  contact: XeroContact;
}

/** One line of an invoice as Xero reads it: amounts GST-inclusive, in cents here. */
export interface XeroLine {
  description: string;
  quantity: number;
  unitCents: number;
  tax: keyof typeof xeroTaxTypes;
}

/**
 * The GST Xero works out for these lines: it rounds each line's GST to the cent, then adds them
 * (a line of GST-inclusive amount A carries round(A x 3/23)).
 */
export function xeroGstCents(lines: readonly XeroLine[]): number {
  return lines.reduce((sum, line) => sum + (line.tax === 'gst' ? gstPartOfCents(line.quantity * line.unitCents) : 0), 0);
}

export const lineTotalCents = (lines: readonly XeroLine[]) => lines.reduce((sum, line) => sum + line.quantity * line.unitCents, 0);

/** The smallest GST-inclusive amount (signed) whose GST part is exactly `gstCents`. */
function amountCarryingGst(gstCents: number): number {
  const sign = Math.sign(gstCents);
  let amount = 0;
  while (gstPartOfCents(amount) !== gstCents) amount += sign;
  return amount;
}

/**
 * An order's invoice lines: each product line, delivery, the rural surcharge and the promo
 * discount (a negative line), so the lines add up to the order's total. The order's GST is
 * 3/23 of its total, rounded once; Xero rounds line by line, which can differ by a cent or two.
 * Where it does, a pair of "GST rounding" lines that add up to $0.00 moves that cent between the
 * taxed and the untaxed part, so Xero's GST equals the receipt's (decision 0033).
 */
export function invoiceLines(order: InvoicedOrder): XeroLine[] {
  const lines: XeroLine[] = order.lines.map((line) => ({
    // The origin and treatment the offer stated, as the law asks them said: on the invoice line too.
    description: [line.isPreOrder ? `${line.name} (pre-order)` : line.name, line.origin, line.treatment].filter(Boolean).join('. '),
    quantity: line.quantity,
    unitCents: line.unitPriceCents,
    tax: 'gst',
  }));
  const deliveryCents = order.shippingCents - order.ruralSurchargeCents;
  if (deliveryCents > 0) lines.push({ description: 'Delivery', quantity: 1, unitCents: deliveryCents, tax: 'gst' });
  if (order.ruralSurchargeCents > 0) lines.push({ description: 'Rural delivery surcharge', quantity: 1, unitCents: order.ruralSurchargeCents, tax: 'gst' });
  if (order.discountCents > 0) lines.push({ description: `Promo code ${order.promoCode ?? ''}`.trim(), quantity: 1, unitCents: -order.discountCents, tax: 'gst' });
  const short = order.gstCents - xeroGstCents(lines);
  if (short !== 0) {
    const amount = amountCarryingGst(short);
    lines.push({ description: 'GST rounding: GST worked on the order total', quantity: 1, unitCents: amount, tax: 'gst' });
    lines.push({ description: 'GST rounding: the same amount back, without GST', quantity: 1, unitCents: -amount, tax: 'none' });
  }
  return lines;
}

/** A refund's credit note: one negative line, GST included, which Xero imports as a credit note. */
export function creditNoteLines(refund: CreditedRefund): XeroLine[] {
  return [{ description: `Refund on order ${refund.orderNumber}: ${refund.reason}`, quantity: 1, unitCents: -refund.amountCents, tax: 'gst' }];
}

/** Xero reads dates as dd/mm/yyyy. */
export const xeroDate = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

function rows(contact: XeroContact, number: string, reference: string, day: string, lines: XeroLine[], accountCode: string): CsvValue[][] {
  const address = [contact.street, contact.suburb, '', ''];
  return lines.map((line) => [
    contact.name,
    contact.email,
    ...address,
    contact.city,
    contact.region,
    contact.postcode,
    contact.street || contact.city ? 'New Zealand' : '',
    number,
    reference,
    xeroDate(day),
    xeroDate(day),
    '',
    line.description,
    String(line.quantity),
    // A number, so the CSV writes it as it is: a negative amount as text would get the formula guard.
    line.unitCents / 100,
    '',
    accountCode,
    xeroTaxTypes[line.tax],
    '',
    '',
    '',
    '',
    'NZD',
    '',
  ]);
}

/** The CSV Xero's "Import invoices" takes: paid orders as invoices, refunds as credit notes, by day. */
export function xeroInvoicesCsv(invoiced: readonly InvoicedOrder[], refunds: readonly CreditedRefund[], accountCode: string): string {
  const documents = [
    ...invoiced.map((order) => ({ day: order.paidOn, rows: rows(order.contact, order.number, paymentMethodLabels[order.paymentMethod], order.paidOn, invoiceLines(order), accountCode) })),
    ...refunds.map((refund) => ({
      day: refund.refundedOn,
      rows: rows(refund.contact, `${refund.orderNumber}-CN${refund.sequence}`, refund.orderNumber, refund.refundedOn, creditNoteLines(refund), accountCode),
    })),
  ];
  documents.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  return csvDocument(xeroInvoiceColumns, documents.flatMap((document) => document.rows));
}
