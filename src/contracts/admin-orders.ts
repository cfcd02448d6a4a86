import type { RefundMethod } from './refunds';
import { fulfilments, type Fulfilment } from './pickup';
import type { LinePacking } from './batches';
import { z } from 'zod';
import { calendarDateField, noteField } from './text';
import { carriers, orderStatuses, type OrderStatus, type OrderView, type PaymentMethod } from './order';

export const preOrderFilters = ['yes', 'waiting', 'no'] as const;
export type PreOrderFilter = (typeof preOrderFilters)[number];

/** GET /api/admin/orders: filters, search and the page, all checked on the server. */
export const adminOrderQuerySchema = z.strictObject({
  status: z.enum(orderStatuses, { error: 'Choose a known status' }).optional(),
  from: calendarDateField('From').optional(),
  to: calendarDateField('To').optional(),
  /** The delivery day, or a pickup order's pickup day, as a packer plans by it. */
  day: calendarDateField('Day').optional(),
  /** 'yes': orders with pre-order boxes; 'waiting': those still waiting for their shipment; 'no': in-stock only. */
  preOrder: z.enum(preOrderFilters, { error: 'Choose yes, waiting or no' }).optional(),
  fulfilment: z.enum(fulfilments, { error: 'Choose delivery or pickup' }).optional(),
  q: z.string({ error: 'Search must be text' }).trim().max(100, 'Search must be at most 100 characters').optional(),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(100_000).default(1),
  pageSize: z.coerce.number({ error: 'Page size must be a whole number' }).int('Page size must be a whole number').min(1).max(100, 'Page size must be at most 100').default(25),
});
export type AdminOrderQuery = z.output<typeof adminOrderQuerySchema>;

/** POST /api/admin/orders/:number/status: a step of the lifecycle; shipping by courier needs its tracking number (`statusChangeProblems`). */

export const orderStatusChangeSchema = z
  .strictObject({
    status: z.enum(orderStatuses, { error: 'Choose a known status' }),
    carrier: z.enum(carriers, { error: 'Choose the carrier' }).optional(),
    trackingNumber: z.string({ error: 'Tracking number must be text' }).trim().min(3, 'Tracking number must be at least 3 characters').max(60, 'Tracking number must be at most 60 characters').optional(),
    note: noteField,
  });
export type OrderStatusChange = z.output<typeof orderStatusChangeSchema>;

/**
 * What a step still needs for this order: a courier's parcel is marked shipped with its carrier and
 * tracking number; a pickup order is marked ready for pickup with neither. Server and admin screen
 * both ask here.
 */
export function statusChangeProblems(change: Pick<OrderStatusChange, 'status' | 'carrier' | 'trackingNumber'>, fulfilment: Fulfilment): Record<string, string> {
  if (change.status !== 'shipped' || fulfilment === 'pickup') return {};
  return {
    ...(change.trackingNumber ? {} : { trackingNumber: 'A tracking number is required to mark an order shipped' }),
    ...(change.carrier ? {} : { carrier: 'Choose the carrier' }),
  };
}

export interface AdminOrderRow {
  number: string;
  placedAt: string;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  customerName: string;
  customerEmail: string;
  region: string;
  total: number;
  gst: number;
  itemCount: number;
  /** Sent as a gift (to someone else, with no prices in the box). */
  gift: boolean;
  fulfilment: Fulfilment;
  /** The delivery day, or the pickup day; null for a pre-order whose day is not set yet. */
  deliveryDate: string | null;
  /** Holds pre-order boxes; `waitingForStock` while some still wait for their shipment. */
  preOrder: boolean;
  waitingForStock: boolean;
  /** On hold for a recalled batch: not packed until staff release it. */
  onHold: boolean;
}

export interface AdminOrderPage {
  orders: AdminOrderRow[];
  total: number;
  page: number;
  pageSize: number;
}

/** GET /api/admin/orders/:number: the order as its customer sees it, and who the customer is. */
export interface AdminOrderDetail extends OrderView {
  customer: { id: number; name: string; email: string; phone: string };
  /** Beside each of `lines`: the batches its boxes were packed from, or will be; null when it holds none yet. */
  lineBatches: Array<LinePacking | null>;
  /** How a refund on it goes back: to the card through Stripe, or by the shop's transfer. */
  refundBy: RefundMethod;
  /** Staff's notes on it, oldest first; never shown to the shopper. */
  notes: OrderNoteView[];
}

export interface OrderNoteView {
  id: number;
  text: string;
  author: string | null;
  at: string;
}

/** POST /api/admin/orders/:number/notes: a note for staff only. */
export const orderNoteSchema = z.strictObject({
  text: z.string({ error: 'Write the note' }).trim().min(1, 'Write the note').max(1000, 'A note must be at most 1000 characters'),
});

/** The steps staff take on many orders at once, each order checked as if taken alone. */
export const bulkStatuses = ['paid', 'packed'] as const;

/** POST /api/admin/orders/bulk-status: "Mark paid" or "Mark packed" on the chosen orders. */
export const bulkStatusSchema = z.strictObject({
  status: z.enum(bulkStatuses, { error: 'Choose paid or packed' }),
  numbers: z
    .array(z.string({ error: 'Order numbers must be text' }).trim().toUpperCase(), { error: 'Choose the orders' })
    .min(1, 'Choose at least one order')
    .max(100, 'At most 100 orders at once')
    .refine((numbers) => new Set(numbers).size === numbers.length, 'Each order once'),
});

/** What happened to each order of a bulk step: changed, or why not. */
export interface BulkStatusResult {
  results: Array<{ number: string; ok: true } | { number: string; ok: false; message: string }>;
}

/** POST /api/admin/orders/:number/resend-email: the order's confirmation again, with today's details. */
export interface ResentMail {
  to: string;
  subject: string;
}
