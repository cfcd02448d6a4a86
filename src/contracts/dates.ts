import { calendarDayText } from './date-text';
import { weekdayOf } from './days';
import { formatter } from './formatter';
import { shopTimeZone } from './nz-today';

export { formatDate, formatDayMonth, isCalendarDate, isInShopYears, isInstantInShopYears, shopYears, yearsMessage } from './date-text';
export { nzToday, shopTimeZone } from './nz-today';

/** A calendar day with its weekday ("Wed, 3 March 2027"): delivery and packing days. */
export function formatDay(date: string): string {
  const text = calendarDayText(date);
  return text ? `${weekdayOf(date)}, ${text}` : nzWeekday().format(new Date(`${date}T12:00:00+12:00`));
}

const nzWeekday = formatter(() => new Intl.DateTimeFormat('en-NZ', { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', timeZone: shopTimeZone }));

const nzDateTime = formatter(() => new Intl.DateTimeFormat('en-NZ', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: shopTimeZone,
}));

/** en-NZ date and time in New Zealand's time zone ("21 Nov 2026, 3:05 pm"). */
export function formatDateTime(value: string | Date): string {
  return nzDateTime().format(new Date(value));
}

/** A YYYY-MM-DD date moved by whole days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

/** The weekday after `day` (YYYY-MM-DD): Friday, Saturday and Sunday lead to Monday. */
export function nextWorkingDay(day: string): string {
  let next = addDays(day, 1);
  while ([0, 6].includes(new Date(`${next}T00:00:00Z`).getUTCDay())) next = addDays(next, 1);
  return next;
}

const nzWallClock = formatter(() => new Intl.DateTimeFormat('en-CA', { timeZone: shopTimeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));

/** An instant as New Zealand's wall clock shows it, for a datetime-local field: "2026-12-04T19:00". */
export function nzWallTime(instant: string | number | Date): string {
  const parts = Object.fromEntries(nzWallClock().formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * The instant (ISO, UTC) at which New Zealand's wall clock shows `wall` ("2026-12-04T19:00"), or
 * null when it is not such a time. A time skipped when daylight saving starts reads an hour on.
 */
export function instantOfNzWallTime(wall: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  if (new Date(asUtc).getUTCMonth() !== month - 1 || new Date(asUtc).getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // New Zealand is 12 or 13 hours ahead: read the offset at the guess, then at the answer.
  const offsetAt = (at: number) => Date.parse(`${nzWallTime(at)}:00Z`) - at;
  let instant = asUtc - offsetAt(asUtc);
  instant = asUtc - offsetAt(instant);
  return new Date(instant).toISOString();
}

/** A deadline as New Zealand's clock shows it: "12:00 pm on Fri, 4 December 2026". */
export function formatDeadline(instant: string | Date): string {
  const [date, time] = nzWallTime(instant).split('T') as [string, string];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return `${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'am' : 'pm'} on ${formatDay(date)}`;
}
