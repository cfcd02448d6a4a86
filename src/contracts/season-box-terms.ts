import { formatDayMonth } from './date-text';
import { type DayKey, weekdayOf } from './days';

/*
 * The season box's words and sums with no zod in them: the product page's first view loads no zod
 * (its JavaScript is benched), and its offer shows these. contracts/subscriptions.ts re-exports them.
 */

/** How often a season box comes (docs/season-box.md). */
export const subscriptionIntervals = ['week', 'fortnight'] as const;
export type SubscriptionInterval = (typeof subscriptionIntervals)[number];
export const intervalLabels: Record<SubscriptionInterval, string> = { week: 'Every week', fortnight: 'Every fortnight' };
export const intervalDays: Record<SubscriptionInterval, number> = { week: 7, fortnight: 14 };

/** Monday..Sunday as the contracts' weekday keys spell them. */
export const weekdayNames: Record<DayKey, string> = { Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday', Sun: 'Sunday' };

/** A unit price less a whole-percent discount, rounded to the cent. */
export const subscriberPriceCents = (priceCents: number, discountPercent: number): number => Math.round((priceCents * (100 - discountPercent)) / 100);

/** "Friday 12 December": a delivery day as the season box's pages and e-mails name it. */
export function dayWords(date: string): string {
  return `${weekdayNames[weekdayOf(date)]} ${formatDayMonth(date)}`;
}
