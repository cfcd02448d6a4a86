import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { batchMovementReasons } from '../../../contracts/batches';
import { recallActions } from '../../../contracts/recalls';
import { treatments } from '../../../contracts/origin';
import { users } from './accounts';
import { products } from './catalog';
import { createdAt } from './columns';
import { orderLines, orders, shipments } from './orders';

/**
 * Boxes of one product that arrived together, with the dates that set their order out of the cool
 * room (first expiring, first out). The boxes in the cool room are the sum of a product's batches'
 * boxes left: its stock, plus the boxes of orders placed but not packed yet (decision 0026).
 */
export const stockBatches = pgTable(
  'stock_batches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    boxesReceived: integer('boxes_received').notNull(),
    boxesLeft: integer('boxes_left').notNull(),
    /** Calendar dates; null when unknown (stock from before batches, a count corrected). */
    harvestedOn: date('harvested_on', { mode: 'string' }),
    bestBefore: date('best_before', { mode: 'string' }),
    grower: text('grower'),
    /** Where these boxes were grown (ISO 3166-1 alpha-2) and how treated; null: as their product says (batches from before origins were kept). */
    originCountry: text('origin_country'),
    treatment: text('treatment', { enum: treatments }),
    /** The pre-order shipment that brought it, when one did. */
    shipmentId: integer('shipment_id').references(() => shipments.id, { onDelete: 'set null' }),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('stock_batches_product_idx').on(t.productId, t.bestBefore),
    check('stock_batches_boxes', sql`${t.boxesReceived} > 0 and ${t.boxesLeft} >= 0`),
    check('stock_batches_dates', sql`${t.harvestedOn} is null or ${t.bestBefore} is null or ${t.harvestedOn} <= ${t.bestBefore}`),
  ],
);

/** Every change to a batch's boxes: its boxes left is always the sum of these. */
export const batchMovements = pgTable(
  'batch_movements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    batchId: integer('batch_id').notNull().references(() => stockBatches.id, { onDelete: 'cascade' }),
    change: integer('change').notNull(),
    reason: text('reason', { enum: batchMovementReasons }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('batch_movements_batch_idx').on(t.batchId, t.createdAt), check('batch_movements_change_non_zero', sql`${t.change} <> 0`)],
);

/** The boxes of an order line packed from each batch (recorded when the order is packed). */
export const orderLineBatches = pgTable(
  'order_line_batches',
  {
    orderLineId: integer('order_line_id').notNull().references(() => orderLines.id, { onDelete: 'cascade' }),
    batchId: integer('batch_id').notNull().references(() => stockBatches.id, { onDelete: 'cascade' }),
    boxes: integer('boxes').notNull(),
    packedAt: timestamp('packed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderLineId, t.batchId] }), index('order_line_batches_batch_idx').on(t.batchId), check('order_line_batches_boxes', sql`${t.boxes} > 0`)],
);

/**
 * A batch found unsafe: its boxes left were written off, the orders waiting for them given boxes of
 * another batch or held, and every shopper sent boxes of it mailed (decision 0048). Once a batch.
 */
export const batchRecalls = pgTable(
  'batch_recalls',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    batchId: integer('batch_id').notNull().references(() => stockBatches.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    advice: text('advice').notNull(),
    /** The batch's boxes left when it was recalled: out of the cool room. */
    boxesWrittenOff: integer('boxes_written_off').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** Staff closed it: the dashboard stops showing it. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedByUserId: integer('closed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('batch_recalls_batch_key').on(t.batchId), check('batch_recalls_boxes', sql`${t.boxesWrittenOff} >= 0`)],
);

/** Each order a recall touched, with its boxes of the batch and what was done for it. */
export const batchRecallOrders = pgTable(
  'batch_recall_orders',
  {
    recallId: integer('recall_id').notNull().references(() => batchRecalls.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    /** Boxes of the order that were, or would have been, packed from the batch. */
    boxes: integer('boxes').notNull(),
    action: text('action', { enum: recallActions }).notNull(),
    /** Of those, boxes no other batch had (held orders only). */
    boxesShort: integer('boxes_short').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.recallId, t.orderId] }), index('batch_recall_orders_order_idx').on(t.orderId), check('batch_recall_orders_boxes', sql`${t.boxes} > 0 and ${t.boxesShort} between 0 and ${t.boxes}`)],
);
