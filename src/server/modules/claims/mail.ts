import { claimReasonLabels, type ClaimReason } from '../../../contracts/claims';
import { formatNzd } from '../../../contracts/money';
import type { RefundMethod } from '../../../contracts/refunds';
import type { MailMessage } from '../../lib/mail';
import type { MailPart } from '../../lib/mail-layout';
import { type MailContext, message, refundRoute } from '../orders/mail';

export interface ClaimMailFacts {
  id: number;
  reason: ClaimReason;
  lines: Array<{ name: string; quantity: number }>;
}

const boxes = (claim: ClaimMailFacts): MailPart => ({ kind: 'list', items: claim.lines.map((line) => `${line.quantity} x ${line.name}`) });
const about = (claim: ClaimMailFacts, context: MailContext) => `your claim #${claim.id} on order ${context.order.number}`;

/** Sent when the shopper reports a problem: what we have, and what happens next. */
export function claimReceivedMail(context: MailContext, claim: ClaimMailFacts): MailMessage {
  return message(context, `We have your claim #${claim.id} for order ${context.order.number}`, [
    `Thank you for telling us. We are sorry your mangoes were not right (${claimReasonLabels[claim.reason].toLowerCase()}).`,
    '',
    'You reported:',
    boxes(claim),
    '',
    'Our team will look at your photos and reply within one working day. You can follow the claim on your order page.',
  ]);
}

export function claimInReviewMail(context: MailContext, claim: ClaimMailFacts): MailMessage {
  return message(context, `Your claim #${claim.id} is being reviewed`, [`Our team is now looking at ${about(claim, context)}. We will e-mail you as soon as it is decided.`]);
}

export function claimRefundedMail(context: MailContext, claim: ClaimMailFacts, refundCents: number, note: string, method: RefundMethod): MailMessage {
  return message(context, `Your claim #${claim.id} is approved: refund of ${formatNzd(refundCents)}`, [
    `We have approved ${about(claim, context)} and ${method === 'card' ? 'refunded' : 'are refunding'} ${formatNzd(refundCents)} for:`,
    boxes(claim),
    ...(note ? ['', note] : []),
    '',
    ...refundRoute(method, context),
    'There is no need to send the mangoes back.',
  ]);
}

export function claimReplacedMail(context: MailContext, claim: ClaimMailFacts, replacementNumber: string, replacementUrl: string, note: string): MailMessage {
  return message(context, `Your claim #${claim.id} is approved: replacement order ${replacementNumber}`, [
    `We have approved ${about(claim, context)} and are sending you fresh boxes at no charge, as order ${replacementNumber}:`,
    boxes(claim),
    ...(note ? ['', note] : []),
    '',
    'We will e-mail you when it is on its way.',
    { kind: 'link', label: 'Follow it here', href: replacementUrl },
  ]);
}

export function claimDeclinedMail(context: MailContext, claim: ClaimMailFacts, reason: string): MailMessage {
  return message(context, `Your claim #${claim.id} for order ${context.order.number}`, [
    `We have looked carefully at ${about(claim, context)} and are sorry we cannot approve it.`,
    '',
    reason,
    '',
    `If you think we have got this wrong, reply to this e-mail or write to ${context.settings.contact.email}.`,
  ]);
}
