import type { RefundMethod, RefundState } from './refunds';
import { z } from 'zod';
import { hasWholeCents } from './money';
import type { OrderStatus } from './order';

/**
 * Freshness claims (the guarantee on the home page, kept): a shopper reports a problem with boxes
 * of a delivered order, within the window set in settings; staff review it and refund, replace or
 * decline. Decision 0018 records why a claim is its own record beside the order.
 */
export const claimReasons = ['bruised', 'overripe', 'not_ripening', 'damaged_in_transit', 'missing'] as const;
export type ClaimReason = (typeof claimReasons)[number];

export const claimReasonLabels: Record<ClaimReason, string> = {
  bruised: 'Bruised',
  overripe: 'Overripe',
  not_ripening: 'Not ripening',
  damaged_in_transit: 'Damaged in transit',
  missing: 'Missing',
};

export const claimOutcomes = ['refund', 'replacement'] as const;
export type ClaimOutcome = (typeof claimOutcomes)[number];

export const claimOutcomeLabels: Record<ClaimOutcome, string> = { refund: 'Refund', replacement: 'Replacement' };

/** new: waiting for staff; in_review: a staff member is on it; approved and declined are final. */
export const claimStatuses = ['new', 'in_review', 'approved', 'declined'] as const;
export type ClaimStatus = (typeof claimStatuses)[number];
export const openClaimStatuses: readonly ClaimStatus[] = ['new', 'in_review'];

export const claimStatusLabels: Record<ClaimStatus, string> = { new: 'New', in_review: 'In review', approved: 'Approved', declined: 'Declined' };

/** 1 to 5 photos per claim, each a JPEG, PNG or WebP within the upload size limit. */
export const claimPhotoLimits = { min: 1, max: 5 } as const;

/** Hours after delivery that a claim may be made: settings choose within these bounds. */
export { claimWindowBounds } from './settings';

/** The claim part of POST /api/orders/:number/claims (sent as a multipart field named "claim", photos beside it). */
export const claimRequestSchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        lineId: z.number({ error: 'Choose a box from the order' }).int('Choose a box from the order').positive('Choose a box from the order'),
        quantity: z.number({ error: 'Boxes must be a whole number' }).int('Boxes must be a whole number').min(1, 'Boxes must be at least 1').max(1000, 'Boxes must be at most 1000'),
      }),
      { error: 'Choose the boxes with a problem' },
    )
    .min(1, 'Choose the boxes with a problem')
    .max(50, 'Choose at most 50 lines')
    .refine((lines) => new Set(lines.map((line) => line.lineId)).size === lines.length, 'Each line may be chosen once'),
  reason: z.enum(claimReasons, { error: 'Choose what went wrong' }),
  description: z
    .string({ error: 'Tell us what happened' })
    .trim()
    .min(10, 'Tell us what happened (at least 10 characters)')
    .max(2000, 'Description must be at most 2000 characters'),
  outcome: z.enum(claimOutcomes, { error: 'Choose a refund or a replacement' }),
});
export type ClaimRequest = z.output<typeof claimRequestSchema>;

/** POST /api/admin/claims/:id/approve: a refund of a chosen amount (dollars), or a replacement. */
export const claimApprovalSchema = z.discriminatedUnion(
  'resolution',
  [
    z.strictObject({
      resolution: z.literal('refund'),
      amount: z
        .number({ error: 'Refund amount must be a number of dollars' })
        .positive('Refund amount must be more than $0.00')
        .max(1_000_000, 'Refund amount is too large')
        .refine(hasWholeCents, 'Refund amount must be in whole cents'),
      note: z.string({ error: 'Note must be text' }).trim().max(500, 'Note must be at most 500 characters').optional().default(''),
    }),
    z.strictObject({
      resolution: z.literal('replacement'),
      note: z.string({ error: 'Note must be text' }).trim().max(500, 'Note must be at most 500 characters').optional().default(''),
    }),
  ],
  { error: 'Choose a refund or a replacement' },
);
export type ClaimApproval = z.output<typeof claimApprovalSchema>;

/** POST /api/admin/claims/:id/decline: the reason is sent to the shopper. */
export const claimDeclineSchema = z.strictObject({
  reason: z.string({ error: 'Give the reason the shopper will read' }).trim().min(5, 'Give the reason the shopper will read (at least 5 characters)').max(1000, 'Reason must be at most 1000 characters'),
});

export const adminClaimQuerySchema = z.object({
  status: z.enum([...claimStatuses, 'open', 'all'], { error: 'Choose a claim status' }).optional().default('open'),
});

export interface ClaimLineView {
  lineId: number;
  name: string;
  quantity: number;
  unitPrice: number;
}

/** A claim as its shopper reads it on the order page. */
export interface ClaimView {
  id: number;
  status: ClaimStatus;
  reason: ClaimReason;
  description: string;
  outcome: ClaimOutcome;
  lines: ClaimLineView[];
  photoUrls: string[];
  createdAt: string;
  decidedAt: string | null;
  /** What was decided: the refund given, the replacement order, or why it was declined. */
  refund: number | null;
  /** Where that refund is: on its way to the card, owed by transfer, or paid back. */
  refundState: RefundState | null;
  replacementOrderNumber: string | null;
  declineReason: string | null;
}

/** A line of a delivered order and how many of its boxes may still be claimed. */
export interface ClaimableLine {
  lineId: number;
  name: string;
  quantity: number;
  claimable: number;
}

/** GET /api/orders/:number/claims: the order's claims and whether a new one may be made now. */
export interface OrderClaims {
  /** Null when a claim may be made now; otherwise the reason it may not, as the shopper reads it. */
  closedReason: string | null;
  /** When the window closes (or closed); null before delivery. */
  windowClosesAt: string | null;
  windowHours: number;
  lines: ClaimableLine[];
  claims: ClaimView[];
}

/** One row of the staff queue. */
export interface AdminClaimRow {
  id: number;
  status: ClaimStatus;
  reason: ClaimReason;
  outcome: ClaimOutcome;
  orderNumber: string;
  customer: string;
  boxes: number;
  photoCount: number;
  createdAt: string;
}

export interface AdminClaimList {
  claims: AdminClaimRow[];
  counts: Record<ClaimStatus, number>;
}

/** A batch a claimed line's boxes came from (staff only): its label (`batchLabel`), grower and the boxes claimed from it. */
export interface ClaimLineBatch {
  batchId: number;
  label: string;
  grower: string | null;
  boxes: number;
}

/** A claimed line as staff see it: with its batches, none when it was packed before batches were recorded. */
export interface AdminClaimLineView extends ClaimLineView {
  batches: ClaimLineBatch[];
}

/** A claim as staff decide it: the order, the customer's earlier claims, what can be refunded. */
export interface AdminClaimDetail extends Omit<ClaimView, 'lines'> {
  lines: AdminClaimLineView[];
  /** `refundBy`: how a refund on it goes back, to the card through Stripe or by the shop's transfer. */
  order: { number: string; status: OrderStatus; total: number; refunded: number; deliveredAt: string | null; placedAt: string; refundBy: RefundMethod };
  customer: { id: number; name: string; email: string };
  earlierClaims: Array<{ id: number; orderNumber: string; status: ClaimStatus; reason: ClaimReason; createdAt: string }>;
  /** The most a refund may be: what was paid for the claimed boxes, less refunds already given on the order. */
  refundLimit: number;
  /** Boxes in stock now for each claimed line's product: a replacement takes them like any order. */
  stockForReplacement: Array<{ name: string; wanted: number; inStock: number }>;
  reviewedBy: string | null;
  decidedBy: string | null;
}
