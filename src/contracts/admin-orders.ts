import type { Fulfilment } from './pickup';
import type { LinePacking } from './batches';
import { z } from 'zod';
import { calendarDateField, noteField } from './text';
import { carriers, orderStatuses, type OrderStatus, type OrderView, type PaymentMethod } from './order';

/** GET /api/admin/orders: filters, search and the page, all checked on the server. */
export const adminOrderQuerySchema = z.strictObject({
  status: z.enum(orderStatuses, { error: 'Choose a known status' }).optional(),
  from: calendarDateField('From').optional(),
  to: calendarDateField('To').optional(),
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
}
