import { formatDate, formatDay } from '../../../contracts/dates';
import { formatNzd } from '../../../contracts/money';
import { carrierLabels, type OrderView } from '../../../contracts/order';
import type { StoredSettings } from '../../../contracts/settings';
import type { MailMessage } from '../../lib/mail';

const money = (dollars: number) => formatNzd(Math.round(dollars * 100));

function linesAndTotals(order: OrderView): string[] {
  return [
    ...order.lines.map((line) => {
      const preOrder = !line.isPreOrder
        ? ''
        : line.allocated
          ? ' (pre-order, boxes set aside)'
          : line.expectedAvailabilityDate
            ? ` (pre-order, ships after ${formatDate(line.expectedAvailabilityDate)})`
            : ' (pre-order)';
      return `  ${line.quantity} x ${line.name} @ ${money(line.unitPrice)} = ${money(line.lineTotal)}${preOrder}`;
    }),
    '',
    `Subtotal: ${money(order.subtotal)}`,
    `Shipping: ${money(order.shipping)}`,
    ...(order.ruralSurcharge > 0 ? [`Rural delivery: ${money(order.ruralSurcharge)}`] : []),
    ...(order.discount > 0 ? [`Discount${order.promoCode ? ` (${order.promoCode})` : ''}: -${money(order.discount)}`] : []),
    `Total: ${money(order.total)} (includes GST of ${money(order.gst)})`,
  ];
}

function address(order: OrderView): string[] {
  const a = order.shippingAddress;
  return [a.name, a.street, ...(a.suburb ? [a.suburb] : []), `${a.city} ${a.postcode}`, a.region, a.phone];
}

/** When the boxes arrive: the chosen day, or for a pre-order the promise of one. */
export function deliveryLine(order: OrderView): string {
  if (order.deliveryDate) return `Delivery: ${formatDay(order.deliveryDate)}${order.rural ? ' (rural delivery)' : ''}`;
  return 'Delivery: we will set your delivery day when your pre-order boxes arrive, and e-mail you the date.';
}

/** The carrier and the link to follow the parcel, when the order has shipped with them. */
export function trackingLines(order: OrderView): string[] {
  if (!order.trackingNumber) return [];
  const carrier = order.carrier ? `${carrierLabels[order.carrier]} ` : '';
  return [`Tracking number: ${carrier}${order.trackingNumber}`, ...(order.trackingUrl ? [`Track your parcel: ${order.trackingUrl}`] : [])];
}

export interface MailContext {
  to: string;
  firstName: string;
  order: OrderView;
  settings: StoredSettings;
  orderUrl: string;
}

export function message(context: MailContext, subject: string, body: string[]): MailMessage {
  return {
    to: context.to,
    subject,
    text: [`Kia ora ${context.firstName},`, '', ...body, '', `See your order: ${context.orderUrl}`, '', `${context.settings.siteName}`].join('\n'),
  };
}

/** Sent when an order is placed: what was ordered, where it goes, and how to pay. */
export function confirmationMail(context: MailContext): MailMessage {
  const { order, settings } = context;
  const payment =
    order.bankTransfer
      ? [
          'How to pay: please make a bank transfer of the total to',
          `  Account name: ${order.bankTransfer.accountName}`,
          `  Account number: ${order.bankTransfer.accountNumber || `please ask us at ${settings.contact.email}`}`,
          ...(order.bankTransfer.bankName ? [`  Bank: ${order.bankTransfer.bankName}`] : []),
          `  Reference: ${order.bankTransfer.reference}`,
          `Please pay by ${formatDate(order.bankTransfer.payBy)}; unpaid orders are cancelled after ${settings.unpaidOrderTimeoutDays} days.`,
        ]
      : order.status === 'pending_payment'
        ? ['We will confirm as soon as your card payment has gone through.']
        : [];
  return message(context, `Your order ${order.number} at ${settings.siteName}`, [
    `Thank you for your order ${order.number}, placed ${formatDate(order.placedAt)}.`,
    '',
    ...linesAndTotals(order),
    '',
    ...payment,
    ...(payment.length ? [''] : []),
    deliveryLine(order),
    '',
    'Delivering to:',
    ...address(order).map((line) => `  ${line}`),
  ]);
}

export function paidMail(context: MailContext): MailMessage {
  return message(context, `Payment received for order ${context.order.number}`, [
    `We have received your payment of ${money(context.order.total)} for order ${context.order.number}.`,
    'We will pack your mangoes next and e-mail you when they are on their way.',
    deliveryLine(context.order),
  ]);
}

export function shippedMail(context: MailContext): MailMessage {
  return message(context, `Order ${context.order.number} is on its way`, [
    `Your order ${context.order.number} has been shipped.`,
    ...(context.order.deliveryDate ? [`It is due with you on ${formatDay(context.order.deliveryDate)}.`] : []),
    ...trackingLines(context.order),
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
export function refundedMail(context: MailContext, refundedNowCents: number): MailMessage {
  const totalCents = Math.round(context.order.total * 100);
  const amount =
    refundedNowCents === totalCents
      ? `We have refunded ${formatNzd(refundedNowCents)} for your order ${context.order.number}.`
      : refundedNowCents > 0
        ? `We have refunded the remaining ${formatNzd(refundedNowCents)} of your order ${context.order.number} (${formatNzd(totalCents - refundedNowCents)} was refunded before).`
        : `Your order ${context.order.number} is now marked refunded: its ${formatNzd(totalCents)} was refunded before.`;
  return message(context, `Order ${context.order.number} has been refunded`, [
    amount,
    'It can take a few working days to reach your account, depending on your bank. Reply to this e-mail with any questions.',
  ]);
}

/** Staff moved the order to another delivery day (a delayed shipment, a full day, the shopper asked). */
export function deliveryMovedMail(context: MailContext, previousDate: string | null, reason: string): MailMessage {
  const { order } = context;
  const to = order.deliveryDate ? formatDay(order.deliveryDate) : 'a day we will confirm';
  return message(context, `New delivery day for order ${order.number}`, [
    previousDate ? `We have moved the delivery of your order ${order.number} from ${formatDay(previousDate)} to ${to}.` : `Your order ${order.number} now has its delivery day: ${to}.`,
    ...(reason ? [`Why: ${reason}`] : []),
    'If the new day does not suit you, reply to this e-mail and we will find another.',
  ]);
}
