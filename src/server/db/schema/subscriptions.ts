import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { subscriptionIntervals, subscriptionStatuses } from '../../../contracts/subscriptions';
import { checkoutPaymentMethods, nzRegions } from '../../../contracts/order';
import { users } from './accounts';
import { products } from './catalog';
import { createdAt, updatedAt } from './columns';
import { orders } from './orders';

/** A season box: a shopper's standing order of one product, every week or fortnight, on one weekday (docs/season-box.md). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull().references(() => products.id),
    quantity: smallint('quantity').notNull(),
    every: text('every', { enum: subscriptionIntervals }).notNull(),
    /** The first box's date: every later one is a whole number of intervals after it, on its weekday. */
    firstDeliveryDate: date('first_delivery_date', { mode: 'string' }).notNull(),
    paymentMethod: text('payment_method', { enum: checkoutPaymentMethods }).notNull(),
    status: text('status', { enum: subscriptionStatuses }).notNull().default('active'),
    /** Paused with a day to start again (null: until the shopper resumes). */
    pausedUntil: date('paused_until', { mode: 'string' }),
    /**
     * No box before this day: set when the season box starts or starts again (resumed, its card
     * saved), to its first date still before its cut-off, so the weeks it was not running never
     * come back as boxes due. Null: from the first delivery date.
     */
    boxesFrom: date('boxes_from', { mode: 'string' }),
    shipName: text('ship_name').notNull(),
    shipPhone: text('ship_phone').notNull(),
    shipStreet: text('ship_street').notNull(),
    shipSuburb: text('ship_suburb').notNull().default(''),
    shipCity: text('ship_city').notNull(),
    shipPostcode: text('ship_postcode').notNull(),
    shipRegion: text('ship_region', { enum: nzRegions }).notNull(),
    deliveryInstructions: text('delivery_instructions').notNull().default(''),
    rural: boolean('rural').notNull().default(false),
    /** A card season box: the Stripe customer and the card saved through Checkout in setup mode (null until saved). */
    stripeCustomerId: text('stripe_customer_id'),
    stripePaymentMethodId: text('stripe_payment_method_id'),
    cardSetupSessionId: text('card_setup_session_id'),
    /** The price of one box the shopper was last told (at subscribing, or in a reminder): a reminder says when it changed. */
    toldUnitPriceCents: integer('told_unit_price_cents').notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('subscriptions_quantity_range', sql`${t.quantity} between 1 and 10`),
    check('subscriptions_cancelled', sql`(${t.status} = 'cancelled') = (${t.cancelledAt} is not null)`),
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_status_idx').on(t.status),
  ],
);

/**
 * What happened to, or is asked of, one delivery of a subscription: a skip, a next-box change
 * (product, quantity), the run's order or a miss. The primary key is the rule "one order per
 * subscription and date": the run writes its row and its order together, and a second run, in
 * any process, finds the row.
 */
export const subscriptionDeliveries = pgTable(
  'subscription_deliveries',
  {
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id, { onDelete: 'cascade' }),
    deliveryDate: date('delivery_date', { mode: 'string' }).notNull(),
    /** null: still to come (with a change for this box); skipped, ordered or missed once decided. */
    state: text('state', { enum: ['skipped', 'ordered', 'missed'] }),
    productId: integer('product_id').references(() => products.id),
    quantity: smallint('quantity'),
    orderId: integer('order_id').references(() => orders.id),
    note: text('note'),
    /** A card box: when the run's charge was asked of Stripe (a crash before it leaves it to the sweep). */
    chargedAt: timestamp('charged_at', { withTimezone: true }),
    /** When its "skip or change it" e-mail went (one per delivery). */
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.deliveryDate] }),
    check('subscription_deliveries_ordered', sql`(${t.state} = 'ordered') = (${t.orderId} is not null)`),
    check('subscription_deliveries_quantity', sql`${t.quantity} is null or ${t.quantity} between 1 and 10`),
    index('subscription_deliveries_date_idx').on(t.deliveryDate),
  ],
);

/** Staff's "stop all": while the row says stopped, no run makes an order. One row. */
export const subscriptionStop = pgTable(
  'subscription_stop',
  {
    id: smallint('id').primaryKey().default(1),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('subscription_stop_one_row', sql`${t.id} = 1`)],
);

/** A reminder e-mail's one-click skip link: for one delivery of one subscription, signed out. */
export const subscriptionMailLinks = pgTable(
  'subscription_mail_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id, { onDelete: 'cascade' }),
    deliveryDate: date('delivery_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('subscription_mail_links_subscription_idx').on(t.subscriptionId)],
);
