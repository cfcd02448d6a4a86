import type { OrderHold } from './recalls';
import type { RefundView } from './refunds';
import type { Fulfilment, OrderPickupView } from './pickup';
/** Issue rules: the order lifecycle, with cancelled (stock returned) and refunded beside it. */
export const orderStatuses = ['pending_payment', 'paid', 'packed', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** `no_charge` is a replacement order staff create for an approved freshness claim; shoppers never choose it. */
export const paymentMethods = ['bank_transfer', 'stripe', 'no_charge'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** What a shopper may pay with at checkout. */
export const checkoutPaymentMethods = ['bank_transfer', 'stripe'] as const satisfies readonly PaymentMethod[];
export type CheckoutPaymentMethod = (typeof checkoutPaymentMethods)[number];

/** The 16 regions of New Zealand, as a shipping address names them. */
export const nzRegions = [
  'Northland',
  'Auckland',
  'Waikato',
  'Bay of Plenty',
  'Gisborne',
  "Hawke's Bay",
  'Taranaki',
  'Manawatū-Whanganui',
  'Wellington',
  'Tasman',
  'Nelson',
  'Marlborough',
  'West Coast',
  'Canterbury',
  'Otago',
  'Southland',
] as const;
export type NzRegion = (typeof nzRegions)[number];
export const isNzRegion = (value: string): value is NzRegion => (nzRegions as readonly string[]).includes(value);

/**
 * Why stock changed: every change is a movement, so stock is always the sum of its movements.
 * `refund` is boxes back from an order refunded before it was sent; `opening` is stock a product
 * started with; received, spoiled and correction are staff adjustments (a shipment is received);
 * `allocation` is a shipment's boxes given to a pre-order; `recall` is boxes a recalled batch took off
 * sale, or gave to orders it left without (and a held order given its boxes when released).
 */
export const stockMovementReasons = ['order', 'cancellation', 'refund', 'opening', 'received', 'spoiled', 'donated', 'correction', 'allocation', 'recall'] as const;
export type StockMovementReason = (typeof stockMovementReasons)[number];

/**
 * Where each status may go next; a change anywhere else is refused. A cancelled order may be
 * marked refunded only when it had been paid: see `nextStatuses`.
 */
export const orderTransitions: Record<OrderStatus, readonly OrderStatus[]> = {
  pending_payment: ['paid', 'cancelled'],
  paid: ['packed', 'cancelled', 'refunded'],
  packed: ['shipped', 'cancelled', 'refunded'],
  shipped: ['delivered', 'refunded'],
  delivered: ['refunded'],
  cancelled: ['refunded'],
  refunded: [],
};

/** Whether the order's timeline shows it was paid: a cancelled order only has money to refund if so. */
export const wasPaid = (events: readonly { status: OrderStatus }[]): boolean => events.some((event) => event.status === 'paid');

/**
 * The steps an order may take now, from its status, its timeline and whether pre-order boxes still
 * wait for their shipment (it cannot be packed or sent then); server and admin screen both ask here.
 */
export function nextStatuses(order: { status: OrderStatus; events: readonly { status: OrderStatus }[]; waitingForStock?: boolean; onHold?: boolean }): readonly OrderStatus[] {
  if (order.status === 'cancelled' && !wasPaid(order.events)) return [];
  const steps = orderTransitions[order.status];
  // An order on hold (a recall) is not packed until staff release it; it may still be paid or cancelled.
  return order.waitingForStock || (order.onHold && unsentOrderStatuses.includes(order.status)) ? steps.filter((to) => to !== 'packed' && to !== 'shipped') : steps;
}

/**
 * A refund from these statuses puts the order's in-stock boxes back on the shelf (with its promo
 * use, as a cancel does): the boxes never left. After shipping they stay sold, and a cancelled
 * order already returned them.
 */
export const refundReturnsStockFrom: readonly OrderStatus[] = ['paid', 'packed'];

/** How a status reads to a shopper. */
export const orderStatusLabels: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  paid: 'Paid',
  packed: 'Packed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/**
 * A pickup order takes the same steps, with its own words: shipped is "Ready for pickup" (the
 * boxes wait at the shop) and delivered is "Collected" (decision 0034).
 */
export const pickupStatusLabels: Partial<Record<OrderStatus, string>> = { shipped: 'Ready for pickup', delivered: 'Collected' };

/** How a status reads for an order delivered by courier, or collected from the shop. */
export function statusLabel(status: OrderStatus, fulfilment: Fulfilment = 'delivery'): string {
  return (fulfilment === 'pickup' ? pickupStatusLabels[status] : undefined) ?? orderStatusLabels[status];
}

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  bank_transfer: 'Bank transfer',
  stripe: 'Card (Stripe)',
  no_charge: 'No charge (replacement)',
};

export interface OrderLineView {
  productId: number | null;
  name: string;
  unitPrice: number;
  quantity: number;
  lineTotal: number;
  isPreOrder: boolean;
  expectedAvailabilityDate: string | null;
  /** A pre-order line's boxes are set aside from a shipment; false while it waits (and for other lines). */
  allocated: boolean;
  /** What the offer said of its boxes when bought ("Grown in India", "Treated with ionising radiation"); null when it said nothing. */
  origin: string | null;
  treatment: string | null;
}

export interface OrderEventView {
  status: OrderStatus;
  note: string;
  at: string;
}

export interface ShippingAddressView {
  name: string;
  phone: string;
  street: string;
  suburb: string;
  city: string;
  postcode: string;
  region: string;
}

/** An order as its shopper (and staff) read it; money in dollars with 2 decimals like every API price. */
export interface OrderView {
  number: string;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  placedAt: string;
  lines: OrderLineView[];
  subtotal: number;
  /** The flat shipping; a rural surcharge is beside it, so subtotal + shipping + ruralSurcharge - discount = total. */
  shipping: number;
  ruralSurcharge: number;
  discount: number;
  gst: number;
  total: number;
  promoCode: string | null;
  shippingAddress: ShippingAddressView;
  deliveryInstructions: string;
  /** Delivered by courier, or collected from the shop (then `deliveryDate` is the pickup day and `pickup` says where). */
  fulfilment: Fulfilment;
  pickup: OrderPickupView | null;
  /** A gift to the person in the shipping address, with the message on its packing slip (empty for none); null when not a gift. */
  gift: { message: string } | null;
  /** Delivered to a rural address. */
  rural: boolean;
  /** The delivery day (YYYY-MM-DD); null for a pre-order until its boxes are allocated. */
  deliveryDate: string | null;
  /** The day the boxes leave the shop. */
  dispatchDate: string | null;
  trackingNumber: string | null;
  carrier: Carrier | null;
  /** The carrier's tracking page for this parcel, when there is one. */
  trackingUrl: string | null;
  events: OrderEventView[];
  /** Money given back on the order, or on its way: to the card, or owed by transfer until paid out. */
  refunds: RefundView[];
  /**
   * Bank details to pay into while a bank-transfer order waits for payment; the reference is the
   * order number, the amount this order's total with its later delivery's (one transfer pays both).
   */
  bankTransfer: { accountName: string; accountNumber: string; bankName: string; reference: string; payBy: string; amount: number } | null;
  /** The pre-order boxes of this cart, sent later as their own order and paid with this one; null when none. */
  laterDelivery: { number: string; total: number } | null;
  /** This order is the later delivery of another: paid with that order (its number), never on its own. */
  paidWith: string | null;
  canCancel: boolean;
  /** Pre-order boxes still wait for their shipment: the order cannot be packed yet. */
  waitingForStock: boolean;
  /** A recalled batch left some of its boxes without a batch to come from: it waits, and why; null when not on hold. */
  hold: OrderHold | null;
  /** A card order that is not paid yet can (re)start its Stripe payment. */
  canPayByCard: boolean;
}

export interface OrderSummary {
  number: string;
  placedAt: string;
  status: OrderStatus;
  fulfilment: Fulfilment;
  total: number;
  itemCount: number;
}

/** POST /api/orders answers the order, and where to pay when the payment happens elsewhere. */
export interface PlacedOrder {
  order: OrderView;
  checkoutUrl: string | null;
}

/** Orders whose boxes are still owed or delivered: they count against pre-order limits. */
export const liveOrderStatuses: readonly OrderStatus[] = ['pending_payment', 'paid', 'packed', 'shipped', 'delivered'];

/** Orders not sent yet: their pre-order lines may still wait for a shipment (decision 0015). */
export const unsentOrderStatuses: readonly OrderStatus[] = ['pending_payment', 'paid', 'packed'];

/** Orders that are sales: paid or further along, not cancelled; refunded ones count as orders with no revenue. */
export const countedOrderStatuses: readonly OrderStatus[] = ['paid', 'packed', 'shipped', 'delivered', 'refunded'];
/** Orders whose money the shop keeps: revenue in reports, the dashboard and promo codes. */
export const earningOrderStatuses: readonly OrderStatus[] = ['paid', 'packed', 'shipped', 'delivered'];

/** An order number as shoppers and staff type it in a link ("MS-10042", any case). */
export const orderNumberPattern = /^MS-\d{1,12}$/i;

/** Who carries an order's boxes: recorded when it ships, with the tracking number. */
export const carriers = ['nz_post', 'courierpost', 'nz_couriers', 'aramex', 'pbt', 'other'] as const;
export type Carrier = (typeof carriers)[number];

export const carrierLabels: Record<Carrier, string> = {
  nz_post: 'NZ Post',
  courierpost: 'CourierPost',
  nz_couriers: 'NZ Couriers',
  aramex: 'Aramex',
  pbt: 'PBT',
  other: 'Other carrier',
};

/**
 * Each carrier's public tracking page, with the tracking number in it; `other` has none, so the
 * number is shown on its own. PBT's parcels travel on NZ Post's network, and CourierPost is NZ Post's.
 */
const nzPostTracking = (n: string) => `https://www.nzpost.co.nz/tools/tracking/item/${n}`;
const trackingPages: Record<Carrier, ((number: string) => string) | null> = {
  nz_post: nzPostTracking,
  courierpost: nzPostTracking,
  nz_couriers: (n) => `https://www.nzcouriers.co.nz/tools/track-a-parcel?ticket=${n}`,
  aramex: (n) => `https://www.aramex.co.nz/tools/track?l=${n}`,
  pbt: nzPostTracking,
  other: null,
};

/** The link to follow a parcel, or null (no carrier, no number, or a carrier without a page). */
export function trackingUrl(carrier: Carrier | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber) return null;
  const page = trackingPages[carrier];
  return page ? page(encodeURIComponent(trackingNumber)) : null;
}
