import { z } from 'zod';
import type { OrderStatus } from './order';
import { requiredText } from './text';

/**
 * What a recall did for an order: its waiting boxes now come from another batch (`reallocated`),
 * no other batch had them and it is on hold (`held`), or its boxes of the batch had been packed
 * or sent and the shopper was e-mailed (`mailed`).
 */
export const recallActions = ['reallocated', 'held', 'mailed'] as const;
export type RecallAction = (typeof recallActions)[number];

export const recallActionLabels: Record<RecallAction, string> = {
  reallocated: 'Re-allocated to another batch',
  held: 'On hold',
  mailed: 'Shopper e-mailed',
};

/** POST /api/admin/batches/:id/recall */
export const recallSchema = z.strictObject({
  reason: requiredText('Give the reason for the recall', 3, 300, 'Reason must be at most 300 characters'),
  advice: requiredText('Tell shoppers what to do with the fruit', 3, 1000, 'Advice must be at most 1000 characters'),
});
export type RecallInput = z.output<typeof recallSchema>;

/** An order a recall touched, as the recall screen and its CSV list it. */
export interface RecallOrderRow {
  orderNumber: string;
  status: OrderStatus;
  customerName: string;
  email: string;
  phone: string;
  /** Boxes of the order that were, or would have been, packed from the batch. */
  boxes: number;
  /** Of those, boxes no other batch had (a held order). */
  boxesShort: number;
  packedAt: string | null;
  dispatchedAt: string | null;
  deliveredAt: string | null;
  action: RecallAction;
  /** Still on hold now (a held order not yet released or cancelled). */
  onHold: boolean;
}

export interface RecallView {
  id: number;
  batchId: number;
  productId: number;
  productName: string;
  /** "Batch 12, best before 3 December 2026" */
  batchLabel: string;
  reason: string;
  advice: string;
  boxesWrittenOff: number;
  recalledAt: string;
  recalledBy: string | null;
  closedAt: string | null;
  orders: RecallOrderRow[];
  counts: Record<RecallAction, number>;
}

/** A recall in the list of recalls; the dashboard shows a banner for each one until staff close it. */
export interface RecallSummary {
  id: number;
  batchId: number;
  productName: string;
  batchLabel: string;
  reason: string;
  recalledAt: string;
  counts: Record<RecallAction, number>;
  /** Orders still on hold. */
  stillHeld: number;
  closedAt: string | null;
}

/** Why an order is on hold, as staff and the shopper read it. */
export interface OrderHold {
  reason: string;
  since: string;
}
