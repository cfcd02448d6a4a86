import { formatDate, formatDay, formatDeadline } from '../../../contracts/dates';
import type { MailMessage } from '../../lib/mail';
import { deliveryLine, type MailContext, message } from './mail';

const boxesOf = (boxes: number, productName: string) => `${boxes} ${boxes === 1 ? 'box' : 'boxes'} of ${productName}`;

/** A shipment has landed and this order's pre-order boxes are set aside for it. */
export function allocatedMail(context: MailContext, given: { productName: string; boxes: number; dispatch: string }): MailMessage {
  const { order } = context;
  const stillWaiting = order.lines.filter((line) => line.isPreOrder && !line.allocated);
  const next =
    order.status === 'pending_payment'
      ? order.bankTransfer
        ? [`Your order is not paid yet: please pay ${order.bankTransfer.reference ? `(reference ${order.bankTransfer.reference}) ` : ''}by ${formatDeadline(order.bankTransfer.payBy)} so we can send it.`]
        : ['Your order is not paid yet: please complete your card payment from your order page so we can send it.']
      : stillWaiting.length
        ? [`Still to come: ${stillWaiting.map((line) => `${line.name} (expected ${line.expectedAvailabilityDate ? formatDate(line.expectedAvailabilityDate) : 'soon'})`).join(', ')}. We will send your order when everything is here.`]
        : order.deliveryDate
          ? [`Your order is ready to pack. It leaves us on ${formatDay(order.dispatchDate ?? given.dispatch)} and is due with you on ${formatDay(order.deliveryDate)}. We will e-mail you the tracking link when it ships.`]
          : [`Your order is ready to pack. We expect to dispatch it on ${formatDate(given.dispatch)}, and will e-mail you its delivery day and tracking link.`];
  return message(context, `Your pre-order ${order.number}: ${given.productName} has arrived`, [
    `Good news: the ${given.productName} you pre-ordered have landed. We have set aside ${boxesOf(given.boxes, given.productName)} for order ${order.number}.`,
    '',
    ...next,
    ...(order.deliveryDate ? ['', deliveryLine(order)] : []),
  ]);
}

/** The shipment is late: the waiting pre-order has a new expected date. */
export function newDateMail(context: MailContext, change: { productName: string; date: string; note: string }): MailMessage {
  const { order, settings } = context;
  return message(context, `Your pre-order ${order.number}: new date for ${change.productName}`, [
    `The ${change.productName} shipment for your order ${order.number} is running late. We now expect it on ${formatDate(change.date)}.`,
    ...(change.note ? ['', change.note] : []),
    '',
    `Your order stays in the queue in the order it was placed. If you would rather cancel, reply to this e-mail or write to ${settings.contact.email}.`,
  ]);
}
