import { sql } from 'drizzle-orm';
import { check, date, integer, jsonb, pgTable, smallint } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns';

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

/**
 * Orders booked for collection on each pickup day, claimed like dispatch days: one conditional
 * update `booked = booked + 1 where booked + 1 <= capacity`, so parallel orders never overbook.
 */
export const pickupDays = pgTable(
  'pickup_days',
  {
    date: date('date', { mode: 'string' }).primaryKey(),
    bookedOrders: integer('booked_orders').notNull().default(0),
  },
  (t) => [check('pickup_days_booked_non_negative', sql`${t.bookedOrders} >= 0`)],
);
