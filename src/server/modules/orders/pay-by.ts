import { instantOfNzWallTime } from '../../../contracts/dates';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The packing cut-off of the day a bank transfer's boxes are packed (a delivery's dispatch day, a
 * pickup's day), recorded on the order: it is packed once paid, so it must be paid by then. Null
 * when it has no day yet (a pre-order waiting for its boxes).
 */
export function packingCutoff(packingDay: string | null, cutoffTime: string): Date | null {
  const cutoff = packingDay ? instantOfNzWallTime(`${packingDay}T${cutoffTime}`) : null;
  return cutoff ? new Date(cutoff) : null;
}

/**
 * When an unpaid order must be paid by: the unpaid timeout after it was placed (as the settings
 * say now), or its recorded packing cut-off when that is sooner. The sweep cancels on the same.
 */
export function payByOf(order: { createdAt: Date; payBy: Date | null }, timeoutDays: number): Date {
  const timeout = new Date(order.createdAt.getTime() + timeoutDays * dayMs);
  return order.payBy && order.payBy < timeout ? order.payBy : timeout;
}
