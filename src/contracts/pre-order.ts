import { batchDatesProblem, batchOriginFields } from './batches';
import { z } from 'zod';
import { nzToday, nextWorkingDay } from './dates';
import type { OrderStatus } from './order';
import { calendarDateField, noteField } from './text';


/** POST /api/admin/inventory/:productId/shipments: boxes that arrived for a pre-order product. */
export const shipmentSchema = z.strictObject({
  boxes: z
    .number({ error: 'Boxes received must be a whole number' })
    .int('Boxes received must be a whole number')
    .min(1, 'Boxes received must be at least 1')
    .max(100_000, 'Boxes received must be at most 100000'),
  // Boxes enter stock and shoppers are told they have landed: only once they have.
  arrivalDate: calendarDateField('Arrival date', 'Arrival date is required').refine((day) => day <= nzToday(Date.now()), 'Arrival date cannot be in the future: record the shipment when it arrives'),
  note: noteField,
  // The shipment's batch: its dates set when its boxes leave the cool room (first expiring, first out).
  harvestedOn: batchOriginFields.harvestedOn.nullable().optional(),
  bestBefore: batchOriginFields.bestBefore.nullable().optional(),
  grower: batchOriginFields.grower,
  originCountry: batchOriginFields.originCountry,
  treatment: batchOriginFields.treatment,
  /** One per form: a retried submit (a lost answer, a double click) records the shipment once. */
  idempotencyKey: z.string({ error: 'Idempotency key must be text' }).trim().min(8, 'Idempotency key must be 8 to 100 characters').max(100, 'Idempotency key must be 8 to 100 characters').optional(),
});
export type ShipmentInput = z.output<typeof shipmentSchema>;

/** The shipment's schema with its dates checked against each other (the route's body). */
export const shipmentBodySchema = shipmentSchema.superRefine((shipment, context) => {
  const problem = batchDatesProblem(shipment);
  if (problem) context.addIssue({ code: 'custom', path: ['bestBefore'], message: problem });
});

/** POST /api/admin/inventory/:productId/pre-orders/expected-date: a late shipment's new date. */
export const expectedDateSchema = z.strictObject({
  expectedAvailabilityDate: calendarDateField('Expected date', 'Expected date is required').refine((day) => day >= nzToday(Date.now()), 'Expected date cannot be in the past'),
  note: noteField,
});

/** POST /api/admin/inventory/:productId/pre-orders/cancel-waiting: pre-orders a shipment could not serve. */
export const cancelWaitingSchema = z.strictObject({
  reason: z.string({ error: 'Reason is required' }).trim().min(1, 'Reason is required').max(300, 'Reason must be at most 300 characters'),
});

/** One pre-order line for a product, as staff see it on Inventory. */
export interface PreOrderLineView {
  orderNumber: string;
  orderStatus: OrderStatus;
  customer: string;
  email: string;
  boxes: number;
  placedAt: string;
  /** When its boxes were set aside; null while it waits for a shipment (or for a line sent before shipments were recorded). */
  allocatedAt: string | null;
  /** Boxes set aside, still waiting (an open order), or sent without a recorded shipment. */
  state: 'set-aside' | 'waiting' | 'sent';
}

export interface ShipmentView {
  id: number;
  boxes: number;
  arrivalDate: string;
  note: string;
  allocatedBoxes: number;
  recordedAt: string;
}

/** A product's pre-orders: who waits, who has boxes, the shipments so far. */
export interface PreOrderBook {
  productId: number;
  name: string;
  isPreOrder: boolean;
  expectedAvailabilityDate: string | null;
  stock: number;
  preOrdered: number;
  allocated: number;
  waiting: number;
  lines: PreOrderLineView[];
  shipments: ShipmentView[];
}

/** What recording a shipment (or allocating leftover stock) did. */
export interface AllocationResult {
  shipment: ShipmentView | null;
  allocated: Array<{ orderNumber: string; boxes: number }>;
  /** Pre-order lines still without boxes, and their boxes. */
  waiting: { lines: number; boxes: number };
  /** Boxes left as the product's stock. */
  stock: number;
  expectedDispatch: string;
}

/**
 * When boxes set aside from a shipment are expected to leave: the working day after they arrive
 * (or after today, for a shipment recorded late, or for boxes already in stock: no arrival).
 */
export function expectedDispatch(arrivalDate: string | null, now: number): string {
  const today = nzToday(now);
  return nextWorkingDay(arrivalDate !== null && arrivalDate > today ? arrivalDate : today);
}
