import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { claimOutcomes, claimReasons, claimStatuses } from '../../../contracts/claims';
import { users } from './accounts';
import { stockBatches } from './batches';
import { bytea, createdAt } from './columns';
import { orderLines, orders, refunds } from './orders';

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

/**
 * The batches a claim line's boxes came from, split across the order line's packed batches in
 * packing order (decision 0026): the reports count claims per batch and per grower from these. A
 * line packed before batches were recorded has none.
 */
export const claimLineBatches = pgTable(
  'claim_line_batches',
  {
    claimLineId: integer('claim_line_id').notNull().references(() => claimLines.id, { onDelete: 'cascade' }),
    batchId: integer('batch_id').notNull().references(() => stockBatches.id, { onDelete: 'cascade' }),
    boxes: integer('boxes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimLineId, t.batchId] }), index('claim_line_batches_batch_idx').on(t.batchId), check('claim_line_batches_boxes', sql`${t.boxes} > 0`)],
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
