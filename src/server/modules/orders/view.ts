import { asc, eq, inArray } from 'drizzle-orm';
import { centsToDollars } from '../../../contracts/money';
import { type OrderSummary, type OrderView, trackingUrl, unsentOrderStatuses } from '../../../contracts/order';
import type { StoredSettings } from '../../../contracts/settings';
import type { Db, Tx } from '../../db/client';
import { orderEvents, orderLines, orders, refunds } from '../../db/schema';
import { payByOf } from './pay-by';
import { type RefundRow, refundViewOf } from './refunds';

export type OrderRow = typeof orders.$inferSelect;

type LineRow = typeof orderLines.$inferSelect;
type EventRow = typeof orderEvents.$inferSelect;

/** The other order of a cart sent in two deliveries: the later one (of the first), or the first (of the later). */
export interface PairedOrder {
  id: number;
  number: string;
  totalCents: number;
  paidWithOrderId: number | null;
  status: OrderRow['status'];
}

/** The order sent with this one in two deliveries, if any: one read, by the partial index or the key. */
export async function pairedOrderOf(db: Db | Tx, order: Pick<OrderRow, 'id' | 'paidWithOrderId'>): Promise<PairedOrder | null> {
  const [paired] = await db
    .select({ id: orders.id, number: orders.number, totalCents: orders.totalCents, paidWithOrderId: orders.paidWithOrderId, status: orders.status })
    .from(orders)
    .where(order.paidWithOrderId === null ? eq(orders.paidWithOrderId, order.id) : eq(orders.id, order.paidWithOrderId));
  return paired ?? null;
}

/** An order with its lines and timeline, as the shopper's account and the e-mails show it. */
export async function orderView(db: Db | Tx, order: OrderRow, settings: StoredSettings, canPayByCard: boolean): Promise<OrderView> {
  const [lines, events, given, paired] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(asc(refunds.id)),
    pairedOrderOf(db, order),
  ]);
  return viewOf(order, lines, events, settings, canPayByCard, given, paired);
}

/**
 * The view of an order whose lines (by id) and timeline (oldest first) the caller holds: a new
 * order's, just written, needs no reading back.
 */
export function viewOf(order: OrderRow, lines: LineRow[], events: EventRow[], settings: StoredSettings, canPayByCard: boolean, given: RefundRow[] = [], paired: PairedOrder | null = null): OrderView {
  const unpaid = order.status === 'pending_payment';
  // A later order cancelled or refunded (its pre-order not supplied) no longer follows, nor is paid for here.
  const later = order.paidWithOrderId === null && paired && paired.status !== 'cancelled' && paired.status !== 'refunded' ? paired : null;
  const paidWith = order.paidWithOrderId !== null ? (paired?.number ?? null) : null;
  return {
    number: order.number,
    status: order.status,
    paymentMethod: order.paymentMethod,
    placedAt: order.createdAt.toISOString(),
    lines: lines.map((line) => ({
      productId: line.productId,
      name: line.productName,
      unitPrice: centsToDollars(line.unitPriceCents),
      quantity: line.quantity,
      lineTotal: centsToDollars(line.unitPriceCents * line.quantity),
      isPreOrder: line.isPreOrder,
      expectedAvailabilityDate: line.expectedAvailabilityDate,
      allocated: line.isPreOrder && line.allocatedAt !== null,
      origin: line.originLabel,
      treatment: line.treatmentLabel,
    })),
    subtotal: centsToDollars(order.subtotalCents),
    shipping: centsToDollars(order.shippingCents - order.ruralSurchargeCents),
    ruralSurcharge: centsToDollars(order.ruralSurchargeCents),
    discount: centsToDollars(order.discountCents),
    gst: centsToDollars(order.gstCents),
    total: centsToDollars(order.totalCents),
    promoCode: order.promoCode,
    shippingAddress: {
      name: order.shipName,
      phone: order.shipPhone,
      street: order.shipStreet,
      suburb: order.shipSuburb,
      city: order.shipCity,
      postcode: order.shipPostcode,
      region: order.shipRegion,
    },
    deliveryInstructions: order.deliveryInstructions,
    gift: order.giftMessage === null ? null : { message: order.giftMessage },
    fulfilment: order.fulfilment,
    pickup: order.fulfilment === 'pickup' ? { code: order.pickupCode!, address: order.pickupAddress!, hours: order.pickupHours! } : null,
    rural: order.rural,
    deliveryDate: order.deliveryDate,
    dispatchDate: order.dispatchDate,
    trackingNumber: order.trackingNumber,
    carrier: order.carrier,
    trackingUrl: trackingUrl(order.carrier, order.trackingNumber),
    events: events.map((event) => ({ status: event.status, note: event.note, at: event.createdAt.toISOString() })),
    refunds: given.map(refundViewOf),
    bankTransfer:
      unpaid && order.paymentMethod === 'bank_transfer' && order.paidWithOrderId === null
        ? {
            ...settings.bankTransfer,
            reference: order.number,
            payBy: payByOf(order, settings.unpaidOrderTimeoutDays).toISOString(),
            amount: centsToDollars(order.totalCents + (later ? later.totalCents : 0)),
          }
        : null,
    laterDelivery: later ? { number: later.number, total: centsToDollars(later.totalCents) } : null,
    paidWith,
    canCancel: unpaid,
    waitingForStock: unsentOrderStatuses.includes(order.status) && lines.some((line) => line.isPreOrder && line.allocatedAt === null),
    hold: order.heldReason !== null && order.heldAt !== null && unsentOrderStatuses.includes(order.status) ? { reason: order.heldReason, since: order.heldAt.toISOString() } : null,
    canPayByCard: unpaid && order.paymentMethod === 'stripe' && canPayByCard && order.paidWithOrderId === null,
  };
}

/** A shopper's order history, newest first, with the number of boxes on each order. */
export async function orderSummaries(db: Db, rows: OrderRow[]): Promise<OrderSummary[]> {
  if (!rows.length) return [];
  const lines = await db
    .select({ orderId: orderLines.orderId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(inArray(
      orderLines.orderId,
      rows.map((row) => row.id),
    ));
  const boxes = new Map<number, number>();
  for (const line of lines) boxes.set(line.orderId, (boxes.get(line.orderId) ?? 0) + line.quantity);
  return rows.map((row) => ({
    number: row.number,
    placedAt: row.createdAt.toISOString(),
    status: row.status,
    fulfilment: row.fulfilment,
    total: centsToDollars(row.totalCents),
    itemCount: boxes.get(row.id) ?? 0,
  }));
}
