import type { Treatment } from './origin';
import { z } from 'zod';
import { noteField } from './text';
import type { StockMovementReason } from './order';

/** The adjustments staff make by hand: boxes received, boxes spoiled, a count corrected. */
export const adjustmentReasons = ['received', 'spoiled', 'correction'] as const;

/** POST /api/admin/inventory/:productId/adjustments: boxes in (positive) or out (negative). */
export const stockAdjustmentSchema = z.strictObject({
  change: z
    .number({ error: 'Change must be a whole number of boxes' })
    .int('Change must be a whole number of boxes')
    .min(-100_000, 'Change is too large')
    .max(100_000, 'Change is too large')
    .refine((change) => change !== 0, 'Change cannot be 0'),
  reason: z.enum(adjustmentReasons, { error: 'Choose received, spoiled or correction' }),
  note: noteField,
});
export type StockAdjustment = z.output<typeof stockAdjustmentSchema>;

export interface InventoryRow {
  productId: number;
  name: string;
  stock: number;
  isHidden: boolean;
  isPreOrder: boolean;
  /** At or under the settings' low-stock threshold (in-stock products only). */
  isLowStock: boolean;
  preOrderLimit: number | null;
  /** Boxes on pre-orders that are not cancelled or refunded. */
  preOrdered: number;
  /** Of those, boxes set aside from shipments, and boxes still waiting for one (decision 0015). */
  allocated: number;
  waiting: number;
  /** "Notify me" sign-ups: confirmed and still waiting, and those already e-mailed (decision 0016). */
  waitlist: { waiting: number; notified: number };
  /** What the product says of its fruit's origin and treatment: a new batch or shipment starts from it. */
  originSetting: { country: string | null; treatment: Treatment | null };
}

export interface StockMovementView {
  at: string;
  change: number;
  reason: StockMovementReason;
  note: string;
  orderNumber: string | null;
  actor: string | null;
}
