import { addDays, instantOfNzWallTime, nzWallTime } from '../../../contracts/dates';
import { weekdayNames } from '../../../contracts/subscriptions';
import { weekdayOf } from '../../../contracts/days';
import type { DeliverySettings } from '../../../contracts/delivery';
import type { NzRegion } from '../../../contracts/order';
import { intervalDays, type SubscriptionInterval } from '../../../contracts/subscriptions';

/** What a schedule needs of a subscription. */
export interface Schedule {
  firstDeliveryDate: string;
  every: SubscriptionInterval;
  /** The product's season end: no box after it. */
  seasonEndsOn: string | null;
}

const dayMs = 24 * 60 * 60 * 1000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs);

/** Whether the schedule brings a box on `date`. */
export function deliversOn(schedule: Schedule, date: string): boolean {
  if (date < schedule.firstDeliveryDate) return false;
  if (schedule.seasonEndsOn && date > schedule.seasonEndsOn) return false;
  return daysBetween(schedule.firstDeliveryDate, date) % intervalDays[schedule.every] === 0;
}

/** The schedule's dates from `from` to `to` (both included), soonest first. */
export function deliveryDatesOf(schedule: Schedule, from: string, to: string): string[] {
  const step = intervalDays[schedule.every];
  const start = from <= schedule.firstDeliveryDate ? schedule.firstDeliveryDate : addDays(schedule.firstDeliveryDate, Math.ceil(daysBetween(schedule.firstDeliveryDate, from) / step) * step);
  const last = schedule.seasonEndsOn && schedule.seasonEndsOn < to ? schedule.seasonEndsOn : to;
  const dates: string[] = [];
  for (let date = start; date <= last; date = addDays(date, step)) dates.push(date);
  return dates;
}

/** The last box of the season: the schedule's last date on or before the season's end. */
export function lastDeliveryOf(schedule: Schedule): string | null {
  if (!schedule.seasonEndsOn || schedule.seasonEndsOn < schedule.firstDeliveryDate) return null;
  const step = intervalDays[schedule.every];
  return addDays(schedule.firstDeliveryDate, Math.floor(daysBetween(schedule.firstDeliveryDate, schedule.seasonEndsOn) / step) * step);
}

/** The day a delivery's boxes are packed and sent: its region's lead days before. */
export function dispatchDayOf(settings: DeliverySettings, region: NzRegion, date: string): string {
  return addDays(date, -settings.regions[region].leadDays);
}

/**
 * A delivery's cut-off: the packing cut-off time on the day before its dispatch day. Until then the
 * shopper may skip or change the box; then its run makes the order, a day before packing, so a bank
 * transfer has a day to arrive and a declined card a day to be paid.
 */
export function cutoffOf(settings: DeliverySettings, region: NzRegion, date: string): Date {
  return new Date(instantOfNzWallTime(`${addDays(dispatchDayOf(settings, region, date), -1)}T${settings.cutoffTime}`)!);
}

/** The packing cut-off of the delivery's dispatch day: a run's order unpaid by then is not packed. */
export function packingCutoffOf(settings: DeliverySettings, region: NzRegion, date: string): Date {
  return new Date(instantOfNzWallTime(`${dispatchDayOf(settings, region, date)}T${settings.cutoffTime}`)!);
}

/** "Wednesday 12 pm": a cut-off as the reminder names it. */
export function cutoffWords(cutoff: Date): string {
  const [date, time] = nzWallTime(cutoff).split('T') as [string, string];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const clock = `${hour % 12 || 12}${minute ? `:${String(minute).padStart(2, '0')}` : ''} ${hour < 12 ? 'am' : 'pm'}`;
  return `${weekdayNames[weekdayOf(date)]} ${clock}`;
}

export { dayWords } from '../../../contracts/season-box-terms';
