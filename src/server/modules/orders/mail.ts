import { originSentence } from '../../../contracts/origin-text';
import { formatDate, formatDay, formatDeadline } from '../../../contracts/dates';
import { formatNzd } from '../../../contracts/money';
import { carrierLabels, type OrderView } from '../../../contracts/order';
import type { RefundMethod } from '../../../contracts/refunds';
import { sampleBankAccountNumber, type StoredSettings } from '../../../contracts/settings';
import type { MailMessage } from '../../lib/mail';
import { composeMail, type MailPart } from '../../lib/mail-layout';
import { ripeningGuide, type ShippedRipeness } from './ripeness';

const money = (dollars: number) => formatNzd(Math.round(dollars * 100));

/** The lines and totals; the GST part only from a shop registered for GST (an unregistered one charges none). */
function linesAndTotals(order: OrderView, settings: Pick<StoredSettings, 'gstNumber'>): MailPart[] {
  const registered = settings.gstNumber !== '';
  const lines = order.lines.map((line) => {
    const preOrder = !line.isPreOrder
      ? ''
      : line.allocated
        ? ' (pre-order, boxes set aside)'
        : line.expectedAvailabilityDate
          ? ` (pre-order, ships after ${formatDate(line.expectedAvailabilityDate)})`
          : ' (pre-order)';
    return {
      label: `${line.quantity} × ${line.name}${preOrder}`,
      value: money(line.lineTotal),
      text: `  ${line.quantity} x ${line.name} @ ${money(line.unitPrice)} = ${money(line.lineTotal)}${preOrder}`,
    };
  });
  // Where each line's fruit was grown and how treated, as the offer said when it was bought.
  const origins = order.lines.flatMap((line) => (line.origin ? [`${line.name}: ${originSentence(line.origin, line.treatment)}`] : []));
  return [
    { kind: 'table', rows: lines },
    ...origins,
    '',
    {
      kind: 'table',
      rows: [
        { label: 'Subtotal', value: money(order.subtotal) },
        { label: 'Shipping', value: money(order.shipping) },
        ...(order.ruralSurcharge > 0 ? [{ label: 'Rural delivery', value: money(order.ruralSurcharge) }] : []),
        ...(order.discount > 0 ? [{ label: `Discount${order.promoCode ? ` (${order.promoCode})` : ''}`, value: `-${money(order.discount)}` }] : []),
        ...(registered
          ? [
              { label: 'Total', value: money(order.total), strong: true, text: `Total: ${money(order.total)} (includes GST of ${money(order.gst)})` },
              { label: 'Includes GST (15%)', value: money(order.gst), muted: true, text: null },
            ]
          : [{ label: 'Total', value: money(order.total), strong: true }]),
      ],
    },
  ];
}

function address(order: OrderView): string[] {
  const a = order.shippingAddress;
  return [a.name, a.street, ...(a.suburb ? [a.suburb] : []), `${a.city} ${a.postcode}`, a.region, a.phone];
}

/** When the boxes arrive: the chosen day, or for a pre-order the promise of one. */
export function deliveryLine(order: OrderView): MailPart {
  if (order.pickup && order.deliveryDate) return { kind: 'callout', text: `Pickup: ${formatDay(order.deliveryDate)}, ${order.pickup.hours}, at ${order.pickup.address}` };
  if (order.deliveryDate) return { kind: 'callout', text: `Delivery: ${formatDay(order.deliveryDate)}${order.rural ? ' (rural delivery)' : ''}` };
  return { kind: 'callout', text: 'Delivery: we will set your delivery day when your pre-order boxes arrive, and e-mail you the date.' };
}

/** The carrier and the link to follow the parcel, when the order has shipped with them. */
export function trackingLines(order: OrderView): MailPart[] {
  if (!order.trackingNumber) return [];
  const carrier = order.carrier ? `${carrierLabels[order.carrier]} ` : '';
  return [`Tracking number: ${carrier}${order.trackingNumber}`, ...(order.trackingUrl ? [{ kind: 'button' as const, label: 'Track your parcel', href: order.trackingUrl }] : [])];
}

export interface MailContext {
  to: string;
  firstName: string;
  order: OrderView;
  settings: StoredSettings;
  orderUrl: string;
}

/** An e-mail about an order: the greeting, what `body` says, and a button to the order. */
export function message(context: MailContext, subject: string, body: MailPart[], preview?: string): MailMessage {
  return composeMail({
    to: context.to,
    subject,
    preview,
    greeting: `Kia ora ${context.firstName},`,
    parts: [...body, '', { kind: 'button', label: 'See your order', href: context.orderUrl }],
    siteName: context.settings.siteName,
  });
}

/** Sent when an order is placed: what was ordered, where it goes, and how to pay. */
export function confirmationMail(context: MailContext): MailMessage {
  const { order, settings } = context;
  const bank = order.bankTransfer;
  const payment: MailPart[] =
    bank
      ? [
          order.laterDelivery ? `How to pay: please make one bank transfer, for this order and order ${order.laterDelivery.number} together, to` : 'How to pay: please make a bank transfer of the total to',
          {
            kind: 'table',
            rows: [
              { label: 'Account name', value: bank.accountName },
              { label: 'Account number', value: bank.accountNumber || `please ask us at ${settings.contact.email}` },
              ...(bank.bankName ? [{ label: 'Bank', value: bank.bankName }] : []),
              { label: 'Reference', value: bank.reference, strong: true },
              { label: 'Amount', value: money(bank.amount), text: null },
            ].map((row) => ({ ...row, text: row.text === null ? null : `  ${row.label}: ${row.value}` })),
          },
          `Please pay by ${formatDeadline(bank.payBy)}: we pack your order once it is paid, and cancel it if it is still unpaid then.`,
          ...(bank.accountNumber === sampleBankAccountNumber ? ['This is a sample account number: the shop is still being set up. Please contact us before paying.'] : []),
        ]
      : order.paidWith
        ? [`This order is paid for with order ${order.paidWith}: one payment covers both.`]
        : order.status === 'pending_payment'
          ? ['We will confirm as soon as your card payment has gone through.']
          : [];
  return message(context, `Your order ${order.number} at ${settings.siteName}`, [
    `Thank you for your order ${order.number}, placed ${formatDate(order.placedAt)}.`,
    '',
    ...linesAndTotals(order, settings),
    '',
    ...(order.laterDelivery
      ? [`Your pre-order boxes follow as order ${order.laterDelivery.number} (${money(order.laterDelivery.total)}), sent when they arrive, at no extra delivery charge.`, '']
      : order.paidWith
        ? [`These are the pre-order boxes of order ${order.paidWith}: they are sent on their own when they arrive.`, '']
        : []),
    ...payment,
    ...(payment.length ? [''] : []),
    deliveryLine(order),
    '',
    ...(order.pickup ? pickupCodeLines(order.pickup.code) : order.gift ? giftLines(order, order.gift.message) : ['Delivering to:', ...address(order).map((line) => `  ${line}`)]),
  ]);
}

/** The code the shopper shows at the counter. */
function pickupCodeLines(code: string): MailPart[] {
  return ['Your pickup code, to show when you collect:', { kind: 'callout', text: code }, 'We will e-mail you when your order is packed and ready.'];
}

/** A gift's recipient, and the message as it will be printed in the box (no prices go in it). */
function giftLines(order: OrderView, giftMessage: string): MailPart[] {
  return [
    `A gift for ${order.shippingAddress.name}, delivering to:`,
    ...address(order).map((line) => `  ${line}`),
    '',
    ...(giftMessage
      ? ['Your gift message, printed on the slip in the box (which shows no prices):', { kind: 'callout' as const, text: giftMessage }]
      : ['The box carries a packing slip with no prices, and no gift message.']),
  ];
}

export function paidMail(context: MailContext): MailMessage {
  return message(context, `Payment received for order ${context.order.number}`, [
    context.order.paidWith
      ? `Your payment for order ${context.order.paidWith} has arrived, and it pays for this order too (${money(context.order.total)}).`
      : context.order.laterDelivery
        ? `We have received your payment of ${money(context.order.total + context.order.laterDelivery.total)} for order ${context.order.number} and its pre-order boxes, order ${context.order.laterDelivery.number}.`
        : `We have received your payment of ${money(context.order.total)} for order ${context.order.number}.`,
    context.order.waitingForStock ? 'We will pack your mangoes once they arrive and e-mail you when they are on their way.' : 'We will pack your mangoes next and e-mail you when they are on their way.',
    deliveryLine(context.order),
  ]);
}

/** Sent when the boxes leave: when they arrive, how to follow them, and how to ripen the fruit. */
export function shippedMail(context: MailContext, ripeness?: ShippedRipeness): MailMessage {
  const { order } = context;
  if (order.pickup) return readyForPickupMail(context, ripeness);
  const to = order.gift ? order.shippingAddress.name : 'you';
  return message(context, `Order ${order.number} is on its way`, [
    order.gift ? `Your gift to ${order.shippingAddress.name}, order ${order.number}, has been shipped.` : `Your order ${order.number} has been shipped.`,
    ...(order.deliveryDate ? [`It is due with ${to} on ${formatDay(order.deliveryDate)}.`] : []),
    ...trackingLines(context.order),
    ...ripeningGuide(ripeness),
  ]);
}

/** A pickup order is packed and waiting at the shop: where, when, and the code to show. */
export function readyForPickupMail(context: MailContext, ripeness?: ShippedRipeness): MailMessage {
  const { order } = context;
  const pickup = order.pickup!;
  return message(context, `Order ${order.number} is ready for pickup`, [
    `Your order ${order.number} is packed and waiting for you at ${pickup.address}.`,
    ...(order.deliveryDate ? [{ kind: 'callout' as const, text: `Pickup: ${formatDay(order.deliveryDate)}, ${pickup.hours}` }] : []),
    'Your pickup code, to show when you collect:',
    { kind: 'callout', text: pickup.code },
    ...ripeningGuide(ripeness),
  ]);
}

export function cancelledMail(context: MailContext, reason: string): MailMessage {
  return message(context, `Order ${context.order.number} has been cancelled`, [
    `Your order ${context.order.number} has been cancelled.${reason ? ` ${reason}` : ''}`,
    'If you have already paid, we will refund you in full. Reply to this e-mail with any questions.',
  ]);
}

/**
 * Sent when staff record a refund, before or after the boxes were sent, or after a cancel: the
 * amount given back now, which is less than the total when part was refunded before (a claim).
 */
/**
 * How the money of a refund reaches the shopper: Stripe gives a card payment back to the card; a
 * transfer needs the account it goes to, which the shop does not know until the shopper says.
 */
export function refundRoute(method: RefundMethod, context: Pick<MailContext, 'orderUrl'>): MailPart[] {
  if (method === 'card') return ['It goes back to the card you paid with. Banks take 5 to 10 working days to show it on your statement.'];
  return [
    { kind: 'callout', text: 'We need your bank account to pay it back: please add it on your order page.' },
    { kind: 'link', label: 'Add your bank account', href: `${context.orderUrl}#refund` },
    'We pay it as soon as we have it, and e-mail you when it is on its way.',
  ];
}

export function refundedMail(context: MailContext, refundedNowCents: number, method: RefundMethod): MailMessage {
  const totalCents = Math.round(context.order.total * 100);
  const verb = method === 'card' ? 'We have refunded' : 'We are refunding';
  const amount =
    refundedNowCents === totalCents
      ? `${verb} ${formatNzd(refundedNowCents)} for your order ${context.order.number}.`
      : refundedNowCents > 0
        ? `${verb} the remaining ${formatNzd(refundedNowCents)} of your order ${context.order.number} (${formatNzd(totalCents - refundedNowCents)} was refunded before).`
        : `Your order ${context.order.number} is now marked refunded: its ${formatNzd(totalCents)} was refunded before.`;
  return message(context, `Order ${context.order.number} has been refunded`, [
    amount,
    ...(refundedNowCents > 0 ? refundRoute(method, context) : []),
    'Reply to this e-mail with any questions.',
  ]);
}

/** Staff paid a refund owed by transfer into the account the shopper gave. */
export function refundPaidOutMail(context: MailContext, amountCents: number, ending: string): MailMessage {
  return message(context, `Your refund of ${formatNzd(amountCents)} is on its way`, [
    `We have paid your refund of ${formatNzd(amountCents)} for order ${context.order.number} into your account ending ${ending}.`,
    'A transfer between New Zealand banks usually arrives within a working day. Reply to this e-mail if it has not reached you by then.',
  ]);
}

/** Staff moved the order to another delivery day (a delayed shipment, a full day, the shopper asked). */
export function deliveryMovedMail(context: MailContext, previousDate: string | null, reason: string): MailMessage {
  const { order } = context;
  const to = order.deliveryDate ? formatDay(order.deliveryDate) : 'a day we will confirm';
  return message(context, `New delivery day for order ${order.number}`, [
    previousDate ? `We have moved the delivery of your order ${order.number} from ${formatDay(previousDate)} to ${to}.` : `Your order ${order.number} now has its delivery day: ${to}.`,
    ...(reason ? [`Why: ${reason}`] : []),
    // The pay-by moves with the day: an unpaid transfer is told its deadline as it is now.
    ...(order.bankTransfer ? [{ kind: 'callout' as const, text: `Please pay by ${formatDeadline(order.bankTransfer.payBy)}, so your boxes can be packed for the new day.` }] : []),
    'If the new day does not suit you, reply to this e-mail and we will find another.',
  ]);
}
