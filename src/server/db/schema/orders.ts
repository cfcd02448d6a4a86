import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, date, index, integer, pgSequence, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { carriers, orderStatuses, paymentMethods, stockMovementReasons } from '../../../contracts/order';
import { fulfilments } from '../../../contracts/pickup';
import { refundMethods, refundStates } from '../../../contracts/refunds';
import { users } from './accounts';
import { products, promoCodes } from './catalog';
import { createdAt, updatedAt } from './columns';

/** Order numbers run MS-10001, MS-10002...: short to read out; access is checked, never guessed. */
export const orderNumberSequence = pgSequence('order_number_seq', { startWith: 10001 });

export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    number: text('number').notNull().default(sql`'MS-' || nextval('order_number_seq')`),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
    status: text('status', { enum: orderStatuses }).notNull(),
    paymentMethod: text('payment_method', { enum: paymentMethods }).notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    discountCents: integer('discount_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull(),
    gstCents: integer('gst_cents').notNull(),
    promoCodeId: integer('promo_code_id').references(() => promoCodes.id, { onDelete: 'set null' }),
    /** The code as typed on the order, kept even if the promo is deleted later. */
    promoCode: text('promo_code'),
    shipName: text('ship_name').notNull(),
    shipPhone: text('ship_phone').notNull(),
    shipStreet: text('ship_street').notNull(),
    shipSuburb: text('ship_suburb').notNull().default(''),
    shipCity: text('ship_city').notNull(),
    shipPostcode: text('ship_postcode').notNull(),
    shipRegion: text('ship_region').notNull(),
    deliveryInstructions: text('delivery_instructions').notNull().default(''),
    /** A gift: the ship_* details are the recipient's, the buyer stays the account holder; the message goes in the box. Null when not a gift. */
    giftMessage: text('gift_message'),
    /** Delivered by courier, or collected from the shop: then `deliveryDate` is the pickup day and no courier carries it. */
    fulfilment: text('fulfilment', { enum: fulfilments }).notNull().default('delivery'),
    /** A pickup order's code, shown to the shopper and checked at the counter. */
    pickupCode: text('pickup_code'),
    /** Where and when it was promised for collection, as the settings said when it was placed. */
    pickupAddress: text('pickup_address'),
    pickupHours: text('pickup_hours'),
    /** The order holds a place on its pickup day; false once released (cancelled, refunded before collection). */
    pickupBooked: boolean('pickup_booked').notNull().default(false),
    trackingNumber: text('tracking_number'),
    /** Who carries the boxes (set when the order ships); with the tracking number it makes the tracking link. */
    carrier: text('carrier', { enum: carriers }),
    /** The day the shopper chose (or, for a pre-order, the day set when its boxes were allocated). */
    deliveryDate: date('delivery_date', { mode: 'string' }),
    /** The day the boxes are packed and handed to the courier: its capacity holds `deliveryBoxes`. */
    dispatchDate: date('dispatch_date', { mode: 'string' }),
    /** Boxes this order holds on its dispatch day; back to 0 once released (cancelled, refunded before sending). */
    deliveryBoxes: integer('delivery_boxes').notNull().default(0),
    /** A rural address: the shopper ticked "Rural delivery", or the address has an RD number. */
    rural: boolean('rural').notNull().default(false),
    /** The rural surcharge, GST included: part of `shippingCents`, recorded apart for the receipt and reports. */
    ruralSurchargeCents: integer('rural_surcharge_cents').notNull().default(0),
    /** The first day its fruit should be ready to eat, set when it ships if that is after it arrives: the reminder's day. */
    readyMailOn: date('ready_mail_on', { mode: 'string' }),
    /** When the "your mangoes should be ready" e-mail was queued (once), or passed over. */
    readyMailDoneAt: timestamp('ready_mail_done_at', { withTimezone: true }),
    /**
     * The day its fruit should be ready to eat, set when it is delivered or collected (that day, or
     * the first ready day when later): the "How were your mangoes?" e-mail goes a few days after it.
     */
    reviewMailFrom: date('review_mail_from', { mode: 'string' }),
    /** When that e-mail was queued (once), or passed over. */
    reviewMailDoneAt: timestamp('review_mail_done_at', { withTimezone: true }),
    /** Sent by the client with the order: a retried submit finds the same order. */
    idempotencyKey: text('idempotency_key').notNull(),
    stripeSessionId: text('stripe_session_id'),
    /** A payment charged off-session (a card season box's run): what a refund is made against. */
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    /**
     * A bank transfer's deadline, set when it is placed: its unpaid timeout, or the packing cut-off
     * of its day when that comes first. Null for card orders, and for older ones (the timeout alone).
     */
    payBy: timestamp('pay_by', { withTimezone: true }),
    /**
     * The pre-order part of a cart sent in two deliveries: the order it was placed and paid with
     * (one payment for both, that order's). Null for every other order.
     */
    paidWithOrderId: integer('paid_with_order_id').references((): AnyPgColumn => orders.id, { onDelete: 'restrict' }),
    /**
     * Held by a batch recall that left some of its boxes without a batch to come from: why (shown
     * to staff and the shopper) and since when. It is not packed until staff release it or cancel it.
     */
    heldReason: text('held_reason'),
    heldAt: timestamp('held_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_number_key').on(t.number),
    unique('orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('orders_stripe_session_key').on(t.stripeSessionId),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    index('orders_dispatch_date_idx').on(t.dispatchDate),
    index('orders_paid_with_idx').on(t.paidWithOrderId).where(sql`${t.paidWithOrderId} is not null`),
    // Sent later at no extra delivery charge, as the Shipping Policy promises; paid as the first is.
    check('orders_paid_with', sql`${t.paidWithOrderId} is null or (${t.shippingCents} = 0 and ${t.stripeSessionId} is null and ${t.fulfilment} = 'delivery')`),
    index('orders_review_mail_idx').on(t.reviewMailFrom).where(sql`${t.reviewMailFrom} is not null and ${t.reviewMailDoneAt} is null`),
    index('orders_ready_mail_idx').on(t.readyMailOn).where(sql`${t.readyMailOn} is not null and ${t.readyMailDoneAt} is null`),
    check('orders_pickup', sql`(${t.fulfilment} = 'pickup') = (${t.pickupCode} is not null and ${t.pickupAddress} is not null and ${t.pickupHours} is not null) and (${t.fulfilment} = 'delivery' or (${t.dispatchDate} is null and ${t.giftMessage} is null))`),
    check('orders_gift_message', sql`${t.giftMessage} is null or char_length(${t.giftMessage}) <= 300`),
    check('orders_held', sql`(${t.heldReason} is null) = (${t.heldAt} is null)`),
    check('orders_rural_surcharge', sql`${t.ruralSurchargeCents} between 0 and ${t.shippingCents}`),
    check('orders_delivery_boxes', sql`${t.deliveryBoxes} >= 0 and (${t.deliveryBoxes} = 0 or ${t.dispatchDate} is not null)`),
    check('orders_money', sql`${t.subtotalCents} >= 0 and ${t.shippingCents} >= 0 and ${t.discountCents} between 0 and ${t.subtotalCents} and ${t.totalCents} = ${t.subtotalCents} + ${t.shippingCents} - ${t.discountCents} and ${t.gstCents} >= 0`),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** Name and price as sold: the receipt never changes when the catalogue does. */
    productName: text('product_name').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    isPreOrder: boolean('is_pre_order').notNull().default(false),
    expectedAvailabilityDate: date('expected_availability_date', { mode: 'string' }),
    /** A pre-order line's boxes, taken from a shipment (all of them at once); null while it waits. */
    allocatedAt: timestamp('allocated_at', { withTimezone: true }),
    shipmentId: integer('shipment_id').references(() => shipments.id, { onDelete: 'set null' }),
    /** The days its fruit should be ready to eat, fixed when the order ships (what its e-mails said); null when unknown. */
    readyFrom: date('ready_from', { mode: 'string' }),
    readyUntil: date('ready_until', { mode: 'string' }),
    /** What the offer said of its boxes when it was bought ("Grown in India", "Treated with ionising radiation"); null when it said nothing. */
    originLabel: text('origin_label'),
    treatmentLabel: text('treatment_label'),
    /**
     * Boxes of the line a recalled batch held that no other batch could replace: the order is on
     * hold for them, and they are not in the cool room (decision 0048). 0 for every other line.
     */
    recalledBoxes: integer('recalled_boxes').notNull().default(0),
  },
  (t) => [
    index('order_lines_order_idx').on(t.orderId),
    index('order_lines_waiting_idx').on(t.productId).where(sql`${t.isPreOrder} and ${t.allocatedAt} is null`),
    index('order_lines_product_idx').on(t.productId),
    check('order_lines_quantity_positive', sql`${t.quantity} > 0`),
    check('order_lines_recalled_boxes', sql`${t.recalledBoxes} between 0 and ${t.quantity}`),
    // A replacement order's lines cost nothing (a freshness claim): never less than that.
    check('order_lines_price_non_negative', sql`${t.unitPriceCents} >= 0`),
  ],
);

/** Every status change of an order, timestamped, for the shopper's timeline and the staff's record. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status', { enum: orderStatuses }).notNull(),
    note: text('note').notNull().default(''),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.createdAt)],
);

/** Staff's own notes on an order ("rang about the gate code"): never shown to the shopper. */
export const orderNotes = pgTable(
  'order_notes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('order_notes_order_idx').on(t.orderId, t.createdAt)],
);

export const stockMovements = pgTable(
  'stock_movements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    /** Negative when stock leaves (an order), positive when it returns or arrives. */
    change: integer('change').notNull(),
    reason: text('reason', { enum: stockMovementReasons }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('stock_movements_product_idx').on(t.productId, t.createdAt), check('stock_movements_change_non_zero', sql`${t.change} <> 0`)],
);

/** Boxes that arrived for a pre-order product; recording one allocates them to its pre-orders. */
export const shipments = pgTable(
  'shipments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    boxes: integer('boxes').notNull(),
    arrivalDate: date('arrival_date', { mode: 'string' }).notNull(),
    note: text('note').notNull().default(''),
    /** Boxes given to pre-orders when it was recorded (leftover stock from before may add to them). */
    allocatedBoxes: integer('allocated_boxes').notNull().default(0),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    /** Sent by the form with the shipment: a retried submit finds the same shipment. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('shipments_product_idx').on(t.productId, t.createdAt),
    uniqueIndex('shipments_idempotency_key').on(t.productId, t.idempotencyKey),
    check('shipments_boxes_positive', sql`${t.boxes} > 0 and ${t.allocatedBoxes} >= 0`),
  ],
);

/** Money given back on an order: a cancelled pre-order, an approved claim. Never more than was paid. */
export const refunds = pgTable(
  'refunds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** How the money goes back: 'card' through Stripe's refund API, 'transfer' by the shop into the shopper's account. */
    method: text('method', { enum: refundMethods }).notNull().default('transfer'),
    /** 'pending' until Stripe takes a card refund, 'owed' until staff pay a transfer out, then 'refunded'. */
    state: text('state', { enum: refundStates }).notNull().default('refunded'),
    stripeRefundId: text('stripe_refund_id'),
    /** Why the last try at Stripe failed; the sweep tries again. */
    lastError: text('last_error'),
    /** The account the shopper gave for a transfer, and the name on it. */
    payoutAccount: text('payout_account'),
    payoutName: text('payout_name'),
    accountGivenAt: timestamp('account_given_at', { withTimezone: true }),
    /** When the money went: Stripe took the refund, or staff marked the transfer paid out. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    paidOutBy: integer('paid_out_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('refunds_order_idx').on(t.orderId),
    index('refunds_open_idx').on(t.state).where(sql`${t.state} <> 'refunded'`),
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
