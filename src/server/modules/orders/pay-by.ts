import { instantOfNzWallTime } from '../../../contracts/dates';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * When a bank transfer must be paid by: the unpaid timeout after it was placed, or, when sooner,
 * the packing cut-off of the day its boxes are packed (a delivery's dispatch day, a pickup's day):
 * an order is packed once it is paid, so a later deadline would promise a day it cannot make.
 */
export function bankTransferPayBy(placedAt: Date, timeoutDays: number, packingDay: string | null, cutoffTime: string): Date {
  const timeout = new Date(placedAt.getTime() + timeoutDays * dayMs);
  const cutoff = packingDay ? instantOfNzWallTime(`${packingDay}T${cutoffTime}`) : null;
  return cutoff && Date.parse(cutoff) < timeout.getTime() ? new Date(cutoff) : timeout;
}

/** What an unpaid order's view says it must be paid by: the recorded deadline, or the timeout alone. */
export function payByOf(order: { createdAt: Date; payBy: Date | null }, timeoutDays: number): Date {
  return order.payBy ?? new Date(order.createdAt.getTime() + timeoutDays * dayMs);
}
