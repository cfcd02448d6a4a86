import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { reviewHideReasons } from '../../../contracts/reviews';
import { users } from './accounts';
import { products } from './catalog';
import { bytea, createdAt } from './columns';
import { orders } from './orders';

/**
 * A verified buyer's review of a product (decision 0049): one per shopper and product, written
 * once an order of theirs with it was delivered or collected. Published at once unless staff hid
 * it, and then only for one of the listed reasons.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The delivered order that made the writer a verified buyer. */
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    rating: smallint('rating').notNull(),
    title: text('title'),
    body: text('body').notNull(),
    createdAt: createdAt(),
    /** When the writer last changed it; null: never. */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason', { enum: reviewHideReasons }),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references(() => users.id, { onDelete: 'set null' }),
    /** The shop's public answer. */
    replyBody: text('reply_body'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    repliedBy: integer('replied_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('reviews_product_user_key').on(t.productId, t.userId),
    index('reviews_product_published_idx').on(t.productId, t.createdAt).where(sql`${t.hiddenReason} is null`),
    index('reviews_created_idx').on(t.createdAt),
    check('reviews_rating', sql`${t.rating} between 1 and 5`),
    check('reviews_text', sql`char_length(${t.body}) between 1 and 2000 and (${t.title} is null or char_length(${t.title}) between 1 and 100)`),
    check('reviews_hidden', sql`(${t.hiddenReason} is null) = (${t.hiddenAt} is null)`),
    check('reviews_reply', sql`(${t.replyBody} is null) = (${t.repliedAt} is null) and (${t.replyBody} is null or char_length(${t.replyBody}) between 1 and 1000)`),
  ],
);

/**
 * A review's photos, re-encoded as JPEG without metadata. Each waits for staff ('pending') and is
 * shown to everyone once approved; a declined one keeps the listed reason.
 */
export const reviewPhotos = pgTable(
  'review_photos',
  {
    reviewId: integer('review_id').notNull().references(() => reviews.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'declined'] }).notNull().default('pending'),
    declinedReason: text('declined_reason', { enum: reviewHideReasons }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.reviewId, t.position] }),
    index('review_photos_pending_idx').on(t.reviewId).where(sql`${t.status} = 'pending'`),
    check('review_photos_position', sql`${t.position} between 1 and 3`),
    check('review_photos_declined', sql`(${t.status} = 'declined') = (${t.declinedReason} is not null) and (${t.status} = 'pending') = (${t.decidedAt} is null)`),
  ],
);

/** The opt-out links in "How were your mangoes?" e-mails: any of a shopper's links turns them off. Only hashes are kept. */
export const reviewMailLinks = pgTable(
  'review_mail_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('review_mail_links_user_idx').on(t.userId)],
);
