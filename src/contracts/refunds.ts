import { z } from 'zod';

/** How a refund's money goes back: through Stripe to the card that paid, or by the shop's own transfer. */
export const refundMethods = ['card', 'transfer'] as const;
export type RefundMethod = (typeof refundMethods)[number];

/** A card refund is 'pending' until Stripe takes it; a transfer is 'owed' until staff pay it out. */
export const refundStates = ['pending', 'owed', 'refunded'] as const;
export type RefundState = (typeof refundStates)[number];

/** A New Zealand bank account: bank-branch-account-suffix, as the shop's own account is written. */
export const nzAccountNumberPattern = /^\d{2}-\d{4}-\d{7}-\d{2,3}$/;

/** POST /api/orders/:number/refund-account: where the shopper wants a refund owed to them paid. */
export const refundAccountSchema = z.strictObject({
  accountName: z.string({ error: 'Account name must be text' }).trim().min(2, 'Enter the name on the account').max(100, 'Account name must be at most 100 characters'),
  accountNumber: z
    .string({ error: 'Account number must be text' })
    .trim()
    .regex(nzAccountNumberPattern, 'A New Zealand account number looks like 12-3456-0123456-00'),
});
export type RefundAccount = z.output<typeof refundAccountSchema>;

/** A refund as its shopper reads it on the order. */
export interface RefundView {
  id: number;
  amount: number;
  reason: string;
  method: RefundMethod;
  state: RefundState;
  createdAt: string;
  refundedAt: string | null;
  /** The last digits of the account given for a transfer ("…-00"), or null while none is given. */
  accountEnding: string | null;
}

/** GET /api/admin/refunds: refunds not yet paid back (owed transfers, card refunds Stripe has not taken). */
export interface OpenRefundRow extends RefundView {
  orderNumber: string;
  customerName: string;
  customerEmail: string;
  /** For staff paying a transfer: the whole account and its name, once the shopper gave them. */
  payoutAccount: string | null;
  payoutName: string | null;
  /** Why Stripe refused or could not be reached on the last try. */
  lastError: string | null;
}

/** The last part of an account number, enough for the shopper to recognise it. */
export function accountEnding(account: string | null): string | null {
  if (!account) return null;
  const parts = account.split('-');
  return `…${parts.slice(-2).join('-')}`;
}

export const refundStateLabels: Record<RefundState, string> = {
  pending: 'Refund on its way to the card',
  owed: 'Refund owed',
  refunded: 'Refunded',
};
