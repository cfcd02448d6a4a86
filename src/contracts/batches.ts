import { z } from 'zod';
import { addDays, formatDate, nzToday } from './dates';
import { originCountryField, type Treatment, treatmentField } from './origin';
import { calendarDateField, noteField } from './text';

/** Why a batch's boxes changed. */
export const batchMovementReasons = ['received', 'opening', 'packed', 'returned', 'spoiled', 'donated', 'correction', 'recalled'] as const;
export type BatchMovementReason = (typeof batchMovementReasons)[number];

/** Boxes staff take out of a batch that will never be sold. */
export const writeOffReasons = ['spoiled', 'donated'] as const;

const calendarDate = (label: string) => calendarDateField(label, `${label} must be a date (YYYY-MM-DD)`);

/** The dates and grower a batch of fruit arrives with: both dates, the grower if known. */
export const batchOriginFields = {
  // Not in the future: checked by the server against the shop's clock (`harvestProblem`).
  harvestedOn: calendarDate('Harvest date'),
  bestBefore: calendarDate('Best-before date'),
  grower: z.string({ error: 'Grower must be text' }).trim().max(120, 'Grower must be at most 120 characters').nullable().optional(),
  /** Where these boxes were grown and how treated; left out, the product's own are recorded. */
  originCountry: originCountryField.nullable().optional(),
  treatment: treatmentField.nullable().optional(),
};

/** A harvest after tomorrow by the shop's clock; a day's grace, as the orchard's day may already be tomorrow. */
export function harvestProblem(harvestedOn: string | null | undefined, now: Date | number): string | null {
  return harvestedOn && harvestedOn > addDays(nzToday(now), 1) ? 'Harvest date cannot be in the future' : null;
}

/** A best-before before the harvest is a typing mistake. */
export function batchDatesProblem(batch: { harvestedOn?: string | null; bestBefore?: string | null }): string | null {
  return batch.harvestedOn && batch.bestBefore && batch.bestBefore < batch.harvestedOn ? 'Best-before date must be on or after the harvest date' : null;
}

/** POST /api/admin/inventory/:productId/batches: boxes that arrived together. */
export const newBatchSchema = z
  .strictObject({
    boxes: z.number({ error: 'Boxes must be a whole number' }).int('Boxes must be a whole number').min(1, 'Boxes must be at least 1').max(100_000, 'Boxes is too large'),
    ...batchOriginFields,
    note: noteField,
  })
  .superRefine((batch, context) => {
    const problem = batchDatesProblem(batch);
    if (problem) context.addIssue({ code: 'custom', path: ['bestBefore'], message: problem });
  });
export type NewBatch = z.output<typeof newBatchSchema>;

/** POST /api/admin/inventory/:productId/batches/:batchId/write-offs */
export const writeOffSchema = z.strictObject({
  boxes: z.number({ error: 'Boxes must be a whole number' }).int('Boxes must be a whole number').min(1, 'Boxes must be at least 1').max(100_000, 'Boxes is too large'),
  reason: z.enum(writeOffReasons, { error: 'Choose spoiled or donated' }),
  note: noteField,
});
export type WriteOff = z.output<typeof writeOffSchema>;

export interface BatchView {
  id: number;
  productId: number;
  boxesReceived: number;
  boxesLeft: number;
  harvestedOn: string | null;
  bestBefore: string | null;
  grower: string | null;
  /** As recorded with the batch; null for batches from before origins were kept (their product's is said). */
  originCountry: string | null;
  treatment: Treatment | null;
  note: string;
  receivedAt: string;
}

/** A batch's short name on slips and lists: "Batch 12, best before 3 December 2026". */
export function batchLabel(batch: { id: number; bestBefore: string | null }): string {
  return batch.bestBefore ? `Batch ${batch.id}, best before ${formatDate(batch.bestBefore)}` : `Batch ${batch.id} (dates unknown)`;
}

/** A batch on the dashboard's list of fruit to sell, donate or write off soon. */
export interface ExpiringBatch extends BatchView {
  productName: string;
  /** Days until its best-before (0 is today; below 0, passed). */
  daysLeft: number;
}

/** Boxes of an order line and the batch they come from. */
export interface PackedFrom {
  batchId: number;
  boxes: number;
  harvestedOn: string | null;
  bestBefore: string | null;
  grower: string | null;
  /** Where those boxes were grown and how treated (the batch's, or its product's when it has none); null while unknown. */
  originCountry: string | null;
  treatment: Treatment | null;
}

/**
 * Where a line's boxes come from: recorded when the order was packed, or, before that, where
 * packing would take them now (`planned`); `short` boxes no batch holds for the plan.
 */
export interface LinePacking {
  from: PackedFrom[];
  planned: boolean;
  short: number;
}
