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

const nzd = new Intl.NumberFormat(shopRules.locale, {
  style: 'currency',
  currency: shopRules.currency,
  currencyDisplay: 'narrowSymbol',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Spec 1: prices show in $ with exactly 2 decimals, en-NZ formatting ("$1,234.50"). */
export function formatNzd(cents: number): string {
  return nzd.format(cents / 100);
}

export function gstPartOfCents(totalCents: number): number {
  return Math.round((totalCents * shopRules.gstRateNumerator) / shopRules.gstRateDenominator);
}
