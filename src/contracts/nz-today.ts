import { formatter } from './formatter';

/**
 * The shop's days, months and years are New Zealand's. Today's date is apart from the rest of
 * dates.ts: every page needs it, so it travels with the frame's code; the rest loads with the pages
 * that show dates.
 */
export const shopTimeZone = 'Pacific/Auckland';

const nzCalendarDay = formatter(() => new Intl.DateTimeFormat('en-CA', { timeZone: shopTimeZone, year: 'numeric', month: '2-digit', day: '2-digit' }));

/** Today's date (or `now`'s) in New Zealand as YYYY-MM-DD. */
export function nzToday(now: Date | number = Date.now()): string {
  return nzCalendarDay().format(now);
}
