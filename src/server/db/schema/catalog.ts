import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, smallint, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { treatments } from '../../../contracts/origin';
import { users } from './accounts';
import { createdAt, updatedAt } from './columns';

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
    /** When pre-orders open (the shop's clock decides); null is open now. Only a pre-order has one. */
    preOrdersOpenAt: timestamp('pre_orders_open_at', { withTimezone: true }),
    /** The variety's clock: days from harvest until ready to eat, then days it stays at its best; both or neither. */
    ripeningDays: smallint('ripening_days'),
    daysAtBest: smallint('days_at_best'),
    /**
     * Where its fruit is grown (ISO 3166-1 alpha-2) and how it is treated after harvest: what a
     * pre-order's coming shipment, and any batch recorded without its own, is said to be. Null
     * until staff set it (the dashboard lists the products still without one).
     */
    originCountry: text('origin_country'),
    treatment: text('treatment', { enum: treatments }),
    /** Offered as a season box (docs/season-box.md), with a whole-percent discount for subscribers and the day its season ends (the last box). */
    subscribable: boolean('subscribable').notNull().default(false),
    subscriberDiscountPercent: smallint('subscriber_discount_percent').notNull().default(0),
    seasonEndsOn: date('season_ends_on', { mode: 'string' }),
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
    check('products_ripening', sql`(${t.ripeningDays} is null) = (${t.daysAtBest} is null) and (${t.ripeningDays} is null or (${t.ripeningDays} between 0 and 60 and ${t.daysAtBest} between 1 and 30))`),
    check('products_opening_is_pre_order', sql`${t.preOrdersOpenAt} is null or ${t.isPreOrder}`),
    check('products_subscriber_discount_range', sql`${t.subscriberDiscountPercent} between 0 and 50`),
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
    /** A confirmed entry's address joined again: the last "already on the list" reminder, one a day at most. */
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    /** Set with the back-in-stock mail: its one-click unsubscribe link. */
    unsubscribeTokenHash: text('unsubscribe_token_hash').unique(),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The pre-order opening this entry knows of: shown when it joined, or mailed since (decision 0027). */
    toldOpeningAt: timestamp('told_opening_at', { withTimezone: true }),
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
