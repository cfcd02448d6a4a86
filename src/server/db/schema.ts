import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { claimOutcomes, claimReasons, claimStatuses } from '../../contracts/claims';
import { carriers, orderStatuses, paymentMethods, stockMovementReasons } from '../../contracts/order';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Raw bytes. PGlite answers a Uint8Array and pg a Buffer: both become a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    city: text('city').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    region: text('region').notNull().default(''),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** When the account last showed it reads its address (a mailed link opened); null: never. */
    emailProvenAt: timestamp('email_proven_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
  ],
);

/** The cookie holds a random 256-bit id; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);

/** Fixed-window counters shared by every server process (login, registration, forgot password). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});

export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    priceCents: integer('price_cents').notNull(),
    imageUrl: text('image_url').notNull(),
    category: text('category').notNull(),
    /** Rating times ten (48 is 4.8): exact, and shown to 1 decimal as the spec asks. */
    ratingTenths: smallint('rating_tenths').notNull().default(0),
    stock: integer('stock').notNull().default(0),
    isBestseller: boolean('is_bestseller').notNull().default(false),
    isOrganic: boolean('is_organic').notNull().default(false),
    isLowStock: boolean('is_low_stock').notNull().default(false),
    isPreOrder: boolean('is_pre_order').notNull().default(false),
    expectedAvailabilityDate: date('expected_availability_date', { mode: 'string' }),
    isHidden: boolean('is_hidden').notNull().default(false),
    boxInfo: text('box_info'),
    /** Most boxes that may be pre-ordered in all; null is no limit. */
    preOrderLimit: integer('pre_order_limit'),
    /** Set when staff retire a product that has orders: kept for them, never shown or sold again. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('products_price_positive', sql`${t.priceCents} > 0`),
    check('products_stock_non_negative', sql`${t.stock} >= 0`),
    check('products_rating_range', sql`${t.ratingTenths} between 0 and 50`),
    check('products_pre_order_limit_positive', sql`${t.preOrderLimit} is null or ${t.preOrderLimit} > 0`),
    check('products_archived_hidden', sql`${t.archivedAt} is null or ${t.isHidden}`),
    index('products_category_idx').on(t.category),
  ],
);

export const carts = pgTable('carts', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').notNull().unique().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const cartLines = pgTable(
  'cart_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    cartId: integer('cart_id').notNull().references(() => carts.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('cart_lines_cart_product_key').on(t.cartId, t.productId),
    check('cart_lines_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

export const promoCodes = pgTable(
  'promo_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    discountType: text('discount_type', { enum: ['percentage', 'fixed'] }).notNull(),
    /** Whole percent for 'percentage', cents for 'fixed'. */
    discountValue: integer('discount_value').notNull(),
    minimumOrderCents: integer('minimum_order_cents'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    isActive: boolean('is_active').notNull().default(true),
    maxUses: integer('max_uses'),
    maxUsesPerCustomer: integer('max_uses_per_customer'),
    usedCount: integer('used_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_upper_key').on(sql`upper(${t.code})`),
    check('promo_codes_type_value', sql`(${t.discountType} = 'percentage' and ${t.discountValue} between 1 and 100) or (${t.discountType} = 'fixed' and ${t.discountValue} > 0)`),
    check('promo_codes_used_count', sql`${t.usedCount} >= 0 and (${t.maxUses} is null or ${t.usedCount} <= ${t.maxUses})`),
    check('promo_codes_window', sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.startsAt} < ${t.endsAt}`),
  ],
);

/** One row (id 1) holding the settings object, validated by the shared schema on every write. */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: smallint('id').primaryKey().default(1),
    data: jsonb('data').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check('site_settings_single_row', sql`${t.id} = 1`)],
);

export const testimonials = pgTable(
  'testimonials',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    content: text('content').notNull(),
    author: text('author').notNull(),
    /** Rating times ten in half steps (45 is 4.5), at most 5. */
    ratingTenths: smallint('rating_tenths').notNull(),
    imageUrl: text('image_url'),
    isVisible: boolean('is_visible').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('testimonials_rating_half_steps', sql`${t.ratingTenths} between 5 and 50 and ${t.ratingTenths} % 5 = 0`)],
);

export const banners = pgTable(
  'banners',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    location: text('location').notNull(),
    imageUrl: text('image_url').notNull(),
    title: text('title').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('banners_location_idx').on(t.location, t.sortOrder)],
);

export const contentPages = pgTable('content_pages', {
  slug: text('slug').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    unsubscribeTokenHash: text('unsubscribe_token_hash').notNull().unique(),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('newsletter_subscribers_email_lower_key').on(sql`lower(${t.email})`)],
);

/**
 * Pictures staff upload, in the database so every process behind a load balancer serves them
 * (decision 0009). The name is the content's hash: the same picture uploaded twice is one row.
 */
export const uploadedImages = pgTable(
  'uploaded_images',
  {
    name: text('name').primaryKey(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    bytes: bytea('bytes').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** The picture's size once turned upright; null until its variants are made (decision 0012). */
    width: integer('width'),
    height: integer('height'),
    /**
     * The widths of the AVIF and WebP variants in uploaded_image_variants. Null: not made yet (a
     * picture stored before variants existed); empty: the bytes could not be decoded.
     */
    variantWidths: integer('variant_widths').array(),
  },
  (t) => [check('uploaded_images_byte_size', sql`${t.byteSize} = octet_length(${t.bytes})`)],
);

/** Smaller copies of an uploaded picture for phones: one per width and format (decision 0012). */
export const uploadedImageVariants = pgTable(
  'uploaded_image_variants',
  {
    imageName: text('image_name')
      .notNull()
      .references(() => uploadedImages.name, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    format: text('format', { enum: ['avif', 'webp'] }).notNull(),
    byteSize: integer('byte_size').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.imageName, t.width, t.format] }),
    check('uploaded_image_variants_format', sql`${t.format} in ('avif', 'webp')`),
    check('uploaded_image_variants_byte_size', sql`${t.byteSize} = octet_length(${t.bytes})`),
  ],
);

/**
 * Every e-mail the shop sends waits here first, written in the same transaction as the change that
 * causes it, so a crash, a restart or a mail-server outage loses none. A worker in each process
 * delivers due rows one at a time (claimed with SKIP LOCKED) and retries failures with backoff.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    /** When the next delivery may start: now for a new mail, later after a failure, or while a process holds it. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Given up: refused for good by the mail server, still failing after the retry period, or expired. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    /** When the mail stops being worth sending (a reset link's expiry): unsent by then, it is given up. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_due').on(t.dueAt).where(sql`${t.sentAt} is null and ${t.failedAt} is null`)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_at_idx').on(t.createdAt), index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

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
    /** Sent by the client with the order: a retried submit finds the same order. */
    idempotencyKey: text('idempotency_key').notNull(),
    stripeSessionId: text('stripe_session_id'),
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
  },
  (t) => [
    index('order_lines_order_idx').on(t.orderId),
    index('order_lines_waiting_idx').on(t.productId).where(sql`${t.isPreOrder} and ${t.allocatedAt} is null`),
    index('order_lines_product_idx').on(t.productId),
    check('order_lines_quantity_positive', sql`${t.quantity} > 0`),
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
  },
  (t) => [index('refunds_order_idx').on(t.orderId), check('refunds_amount_positive', sql`${t.amountCents} > 0`)],
);


/**
 * "Notify me" sign-ups for a product that is out of stock or whose pre-orders are full. A visitor's
 * entry waits for its address to be confirmed through the link mailed to it (double opt-in); a
 * signed-in shopper's is confirmed at once. An entry is used once: `notified_at` is set in the
 * transaction that queues its mail. One active entry per product and address.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** The link in the last confirm or manage mail (visitors): confirms the entry, or leaves the list. */
    manageTokenHash: text('manage_token_hash').unique(),
    manageTokenSentAt: timestamp('manage_token_sent_at', { withTimezone: true }),
    /** Set with the back-in-stock mail: its one-click unsubscribe link. */
    unsubscribeTokenHash: text('unsubscribe_token_hash').unique(),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('waitlist_entries_active_key')
      .on(t.productId, sql`lower(${t.email})`)
      .where(sql`${t.notifiedAt} is null and ${t.cancelledAt} is null`),
    index('waitlist_entries_waiting_idx')
      .on(t.productId, t.createdAt, t.id)
      .where(sql`${t.confirmedAt} is not null and ${t.notifiedAt} is null and ${t.cancelledAt} is null`),
    index('waitlist_entries_user_idx').on(t.userId),
  ],
);

/**
 * A shopper's report of a problem with boxes of a delivered order (the freshness guarantee): staff
 * review it and approve a refund or a replacement, or decline it with a reason (decision 0018).
 */
export const claims = pgTable(
  'claims',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: claimStatuses }).notNull().default('new'),
    reason: text('reason', { enum: claimReasons }).notNull(),
    description: text('description').notNull(),
    /** What the shopper would like; staff may decide otherwise. */
    outcome: text('outcome', { enum: claimOutcomes }).notNull(),
    /** What staff decided on approval. */
    resolution: text('resolution', { enum: claimOutcomes }),
    refundId: integer('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    replacementOrderId: integer('replacement_order_id').references(() => orders.id, { onDelete: 'set null' }),
    declineReason: text('decline_reason'),
    createdAt: createdAt(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('claims_status_created_idx').on(t.status, t.createdAt),
    index('claims_order_idx').on(t.orderId),
    index('claims_user_idx').on(t.userId),
    check('claims_status', sql`${t.status} in ('new', 'in_review', 'approved', 'declined')`),
    check('claims_decided', sql`(${t.status} in ('approved', 'declined')) = (${t.decidedAt} is not null)`),
  ],
);

/** The boxes a claim is about; `open` mirrors the claim's status, so one open claim per order line is a unique index. */
export const claimLines = pgTable(
  'claim_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id').notNull().references(() => claims.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id').notNull().references(() => orderLines.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    open: boolean('open').notNull().default(true),
  },
  (t) => [
    uniqueIndex('claim_lines_open_per_line_key').on(t.orderLineId).where(sql`${t.open}`),
    index('claim_lines_claim_idx').on(t.claimId),
    check('claim_lines_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** A claim's photos, re-encoded as JPEG without metadata; only the shopper and staff may see them. */
export const claimPhotos = pgTable(
  'claim_photos',
  {
    claimId: integer('claim_id').notNull().references(() => claims.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.position] }), check('claim_photos_position', sql`${t.position} between 1 and 5`)],
);

/** One row (id 1): delivery days per region, cut-off, capacity, closed dates, rural surcharge (issue 13). */
export const deliverySettings = pgTable(
  'delivery_settings',
  {
    id: smallint('id').primaryKey().default(1),
    data: jsonb('data').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check('delivery_settings_single_row', sql`${t.id} = 1`)],
);

/**
 * Boxes booked for packing on each dispatch day. An order claims its boxes here in its own
 * transaction with `booked = booked + n where booked + n <= capacity`, as stock is claimed, so
 * parallel orders never overbook a day.
 */
export const dispatchDays = pgTable(
  'dispatch_days',
  {
    date: date('date', { mode: 'string' }).primaryKey(),
    bookedBoxes: integer('booked_boxes').notNull().default(0),
  },
  (t) => [check('dispatch_days_booked_non_negative', sql`${t.bookedBoxes} >= 0`)],
);
