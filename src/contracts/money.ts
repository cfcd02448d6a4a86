import { shopRules } from './shop-rules';

/** Money is integer cents everywhere inside; JSON carries dollars with 2 decimals for the spec's client. */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** True when a dollar amount has at most 2 decimal places (tolerating binary float noise). */
export function hasWholeCents(dollars: number): boolean {
  return Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;
}

/**
 * Spec 1: prices show in $ with exactly 2 decimals, en-NZ formatting ("$1,234.50", "-$12.00"). Put
 * together by hand as Intl's en-NZ currency format would: a browser's first Intl formatter costs a
 * phone about 100 ms of main thread before the page answers a tap (see formatter.ts), and every
 * page shows a price.
 */
export function formatNzd(cents: number): string {
  if (!Number.isFinite(cents)) return `$${cents}`;
  const whole = Math.round(cents);
  const units = Math.abs(whole);
  const dollars = String(Math.floor(units / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole < 0 ? '-' : ''}$${dollars}.${String(units % 100).padStart(2, '0')}`;
}

export function gstPartOfCents(totalCents: number): number {
  return Math.round((totalCents * shopRules.gstRateNumerator) / shopRules.gstRateDenominator);
}
