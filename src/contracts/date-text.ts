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

/**
 * The years a date the shop stores may name. PostgreSQL has no year 0 (a 500 for staff), and
 * JavaScript reads years 0-99 as 1900-1999; the shop's fruit is picked, sold and reported on
 * within these.
 */
export const shopYears = { first: 2000, last: 2099 } as const;

/** A YYYY-MM-DD day or YYYY-MM month in the shop's years. */
export function isInShopYears(value: string): boolean {
  const year = Number(value.slice(0, 4));
  return /^\d{4}/.test(value) && year >= shopYears.first && year <= shopYears.last;
}

/** An ISO 8601 instant in the shop's years, by the year it is written with (New Zealand's, as staff type it). */
export function isInstantInShopYears(value: string): boolean {
  return !Number.isNaN(new Date(value).getTime()) && isInShopYears(value);
}

/** What a date outside the shop's years reads, the same on every form. */
export function yearsMessage(label: string, kind = 'date'): string {
  return `${label} must be a ${kind} between ${shopYears.first} and ${shopYears.last}`;
}

/** Date.parse rolls 30 February over to March; a real calendar day (YYYY-MM-DD) survives the round trip. */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
