import Holidays from 'date-holidays';
import { addDays, nzToday, shopTimeZone } from '../../../contracts/dates';
import { weekdayOf } from '../../../contracts/days';
import type { DeliveryDayOption, DeliverySettings } from '../../../contracts/delivery';
import type { NzRegion, PaymentMethod } from '../../../contracts/order';

/** Each region's state in the holiday library: its anniversary (or show) day comes with it. */
const holidayStates: Record<NzRegion, string> = {
  Northland: 'NTL',
  Auckland: 'AUK',
  Waikato: 'WKO',
  'Bay of Plenty': 'BOP',
  Gisborne: 'GIS',
  "Hawke's Bay": 'HKB',
  Taranaki: 'TKI',
  'Manawatū-Whanganui': 'MWT',
  Wellington: 'WGN',
  Tasman: 'TAS',
  Nelson: 'NSN',
  Marlborough: 'MBH',
  'West Coast': 'WTC',
  Canterbury: 'CAN',
  Otago: 'OTA',
  Southland: 'STL',
};

/** Where the shop packs: its own anniversary day is a day off for dispatch. */
export const packingRegion: NzRegion = 'Auckland';

export const isWeekend = (date: string) => ['Sat', 'Sun'].includes(weekdayOf(date));

/** Public holidays by holiday-library state and year, as YYYY-MM-DD → name; built once each. */
const holidayCache = new Map<string, Map<string, string>>();

function publicHolidays(state: string | null, year: number): Map<string, string> {
  const key = `${state ?? 'NZ'}:${year}`;
  let days = holidayCache.get(key);
  if (!days) {
    const calendar = state ? new Holidays('NZ', state) : new Holidays('NZ');
    days = new Map();
    for (const holiday of calendar.getHolidays(year)) {
      // Observances (Easter Sunday) are not days off; substitute days are.
      if (holiday.type === 'public') days.set(holiday.date.slice(0, 10), holiday.name);
    }
    holidayCache.set(key, days);
  }
  return days;
}

/** The public holiday on `date` in `region` (national, or the region's anniversary day), or null. */
export function holidayIn(region: NzRegion, date: string): string | null {
  return publicHolidays(holidayStates[region], Number(date.slice(0, 4))).get(date) ?? null;
}

/** A national public holiday on `date` (couriers do not run anywhere), or null. */
export function nationalHoliday(date: string): string | null {
  return publicHolidays(null, Number(date.slice(0, 4))).get(date) ?? null;
}

const nzClock = new Intl.DateTimeFormat('en-GB', { timeZone: shopTimeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The time of day of `now` in New Zealand as HH:MM, daylight saving included. */
export function nzTimeOfDay(now: Date): string {
  return nzClock.format(now);
}

/** The first day boxes ordered now can be packed: today before the cut-off, tomorrow after it. */
export function firstPackingDay(now: Date, cutoffTime: string): string {
  const today = nzToday(now);
  return nzTimeOfDay(now) < cutoffTime ? today : addDays(today, 1);
}

/**
 * The first day an order paid by `payment` can be packed: a bank transfer needs a day to reach the
 * shop before its boxes are packed, so it starts from the packing day after the first one.
 */
export function firstPackingDayFor(now: Date, cutoffTime: string, payment: PaymentMethod | undefined): string {
  const first = firstPackingDay(now, cutoffTime);
  return payment === 'bank_transfer' ? addDays(first, 1) : first;
}

export interface DeliveryQuestion {
  settings: DeliverySettings;
  region: NzRegion;
  now: Date;
  /** Boxes already booked per dispatch day. */
  booked: ReadonlyMap<string, number>;
  /** The boxes this order would add to its dispatch day. */
  boxes: number;
  /** How many available dates to find (unavailable ones found on the way are listed too). */
  wanted?: number;
  /** How far ahead to look, in days. */
  horizonDays?: number;
  /** No dispatch before this day (a pre-order's boxes land later than the first packing day). */
  notBefore?: string;
  /** Dates dispatched before this day are listed greyed out, too soon for the payment (a bank transfer's day to arrive). */
  payableFrom?: string;
}

/** Why a day before a bank transfer can arrive is greyed out at checkout. */
export const tooSoonToTransfer = 'Too soon for a transfer to reach us';

/** The boxes the shop can pack on a dispatch day: the date's own figure, or the daily one. */
export function capacityOn(settings: DeliverySettings, dispatchDate: string): number {
  return settings.capacityOverrides.find((row) => row.date === dispatchDate)?.boxes ?? settings.boxesPerDay;
}

/**
 * Why the boxes cannot be dispatched on `dispatchDate` and delivered to `region` on `date` (its
 * lead time later): a reason shoppers read, null when they can, or undefined for what is never a
 * choice (a weekday the region has no delivery, fruit on the road over a weekend), which checkout
 * does not show at all.
 */
export function whyNot(question: Omit<DeliveryQuestion, 'now' | 'wanted' | 'horizonDays'>, date: string, dispatchDate: string): string | null | undefined {
  const { settings, region, booked, boxes } = question;
  if (!settings.regions[region].days.includes(weekdayOf(date))) return undefined;
  for (let day = dispatchDate; day < date; day = addDays(day, 1)) if (isWeekend(day)) return undefined;
  const closed = settings.closedDates.find((row) => row.date === date || row.date === dispatchDate);
  if (closed) return `Closed: ${closed.reason}`;
  const holiday = holidayIn(region, date);
  if (holiday) return holiday;
  const noPacking = holidayIn(packingRegion, dispatchDate);
  if (noPacking) return `No dispatch on ${noPacking}`;
  for (let day = addDays(dispatchDate, 1); day < date; day = addDays(day, 1)) {
    const onTheRoad = nationalHoliday(day) ?? holidayIn(region, day);
    if (onTheRoad) return `${onTheRoad}: the boxes would wait in a depot`;
  }
  if ((booked.get(dispatchDate) ?? 0) + boxes > capacityOn(settings, dispatchDate)) return 'Fully booked';
  return null;
}

/**
 * The delivery dates checkout offers for a region, soonest first: each a weekday the region has
 * delivery, dispatched its lead time before (never before the first packing day), and marked
 * unavailable with the reason when closed, a holiday, or full. Stops once `wanted` dates are
 * available, or at the horizon.
 */
export function deliveryOptions(question: DeliveryQuestion): DeliveryDayOption[] {
  const { settings, region, now, wanted = 10, horizonDays = 90, notBefore, payableFrom } = question;
  const lead = settings.regions[region].leadDays;
  const packing = firstPackingDay(now, settings.cutoffTime);
  const firstDispatch = notBefore && notBefore > packing ? notBefore : packing;
  const options: DeliveryDayOption[] = [];
  let available = 0;
  for (let date = addDays(firstDispatch, lead), step = 0; step < horizonDays && available < wanted; date = addDays(date, 1), step += 1) {
    const dispatchDate = addDays(date, -lead);
    let reason = whyNot(question, date, dispatchDate);
    if (reason === undefined) continue;
    if (reason === null && payableFrom && dispatchDate < payableFrom) reason = tooSoonToTransfer;
    if (reason === null) available += 1;
    options.push({ date, dispatchDate, state: reason === null ? { available: true } : { available: false, reason } });
  }
  return options;
}
