import { addDays, formatDate, formatDayMonth } from './dates';

/**
 * A variety's clock (set per product): mangoes are picked firm and ripen on the bench, ready to
 * eat `ripeningDays` after harvest, then at their best for `daysAtBest` days.
 */
export interface RipeningClock {
  ripeningDays: number;
  daysAtBest: number;
}

/** The days fruit is ready to eat, first and last at its best (calendar dates, both included). */
export interface RipeWindow {
  from: string;
  until: string;
}

export function ripeWindow(harvestedOn: string, clock: RipeningClock): RipeWindow {
  const from = addDays(harvestedOn, clock.ripeningDays);
  return { from, until: addDays(from, Math.max(clock.daysAtBest, 1) - 1) };
}

/** The span of several windows (boxes of one line from two batches): first ready to last at best. */
export function spanOf(windows: readonly RipeWindow[]): RipeWindow | null {
  if (!windows.length) return null;
  return {
    from: windows.reduce((first, w) => (w.from < first ? w.from : first), windows[0]!.from),
    until: windows.reduce((last, w) => (w.until > last ? w.until : last), windows[0]!.until),
  };
}

/** "8–12 December", "29 November – 3 December", "30 December 2026 – 3 January 2027"; one day alone reads "8 December". */
export function formatDayRange(window: RipeWindow): string {
  const { from, until } = window;
  if (from === until) return formatDayMonth(from);
  if (from.slice(0, 4) !== until.slice(0, 4)) return `${formatDate(from)} – ${formatDate(until)}`;
  if (from.slice(0, 7) === until.slice(0, 7)) return `${Number(from.slice(8, 10))}–${formatDayMonth(until)}`;
  return `${formatDayMonth(from)} – ${formatDayMonth(until)}`;
}

/**
 * What the product page says of the boxes sent now, from the batch the next order would be packed
 * from, counted to the earliest they can arrive (tomorrow): "Ready to eat around 8–12 December", or
 * for fruit ripe by then "Ready to eat when it arrives, at its best until 12 December". Null when
 * the shop cannot say (no clock set, no batch, unknown harvest) or the fruit would arrive past its best.
 */
export function readyToEatLine(product: { ripeningDays: number | null; daysAtBest: number | null; nextHarvestedOn?: string | null }, today: string): string | null {
  if (product.ripeningDays === null || product.daysAtBest === null || !product.nextHarvestedOn) return null;
  const window = ripeWindow(product.nextHarvestedOn, { ripeningDays: product.ripeningDays, daysAtBest: product.daysAtBest });
  const arrives = addDays(today, 1);
  if (window.until < arrives) return null;
  if (window.from <= arrives) return `Ready to eat when it arrives, at its best until ${formatDayRange({ from: window.until, until: window.until })}`;
  return `Ready to eat around ${formatDayRange(window)}`;
}

/** How to bring mangoes on: the part of every ripening guide that holds for each variety. */
export const ripeningAdvice = [
  'Keep them out of the fridge until they are ripe: at room temperature, stem end up, out of direct sun.',
  'A mango is ready when it gives a little to a gentle press and smells sweet at the stem; the colour of the skin says less.',
  'Once ripe, eat them within a day or two, or keep them in the fridge for a few days more.',
] as const;

/** One variety's clock in words: "ready to eat about 8 days after harvest, at their best for 4 days". */
export function clockInWords(clock: RipeningClock): string {
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  return `ready to eat about ${days(clock.ripeningDays)} after harvest, then at their best for ${days(clock.daysAtBest)}`;
}
