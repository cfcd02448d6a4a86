/*
 * Calendar days as en-NZ writes them, apart from the rest of dates.ts (which re-exports them): the
 * shop's product cards show them on the first view, and their code should not bring the
 * checkout's and the admin's date arithmetic with it.
 */
import { formatter } from './formatter';
import { shopTimeZone } from './nz-today';

const nzDate = formatter(() => new Intl.DateTimeFormat('en-NZ', { day: 'numeric', month: 'long', year: 'numeric', timeZone: shopTimeZone }));
const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A calendar day as en-NZ writes it ("10 June 2027"), put together by hand: a day needs no time
 * zone, and pages that show one (a pre-order's expected date on the shop) then load no Intl data
 * (formatter.ts).
 */
export function calendarDayText(day: string): string | undefined {
  if (!isCalendarDate(day)) return undefined;
  return `${Number(day.slice(8, 10))} ${monthNames[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
}

/** A calendar day without its year, as en-NZ writes it ("8 December"). */
export function formatDayMonth(day: string): string {
  return calendarDayText(day)?.slice(0, -5) ?? day;
}

/** en-NZ dates ("10 June 2027"); date-only strings are read as that calendar day. */
export function formatDate(value: string | Date): string {
  return (typeof value === 'string' ? calendarDayText(value) : undefined) ?? nzDate().format(new Date(value));
}

/** Date.parse rolls 30 February over to March; a real calendar day (YYYY-MM-DD) survives the round trip. */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
