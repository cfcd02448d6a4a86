import { describe, expect, it } from 'vitest';
import { formatNzd } from './money';
import { shopRules } from './shop-rules';

describe('formatNzd', () => {
  const intl = new Intl.NumberFormat(shopRules.locale, { style: 'currency', currency: shopRules.currency, currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2, maximumFractionDigits: 2 });

  it('writes dollars as en-NZ does, with $ and exactly 2 decimals', () => {
    expect(formatNzd(0)).toBe('$0.00');
    expect(formatNzd(5)).toBe('$0.05');
    expect(formatNzd(123450)).toBe('$1,234.50');
    expect(formatNzd(-1200)).toBe('-$12.00');
    expect(formatNzd(100_000_000_00)).toBe('$100,000,000.00');
  });

  it('agrees with Intl for every amount a shop meets', () => {
    const amounts = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 99_999, 100_000, 100_001, 123_456_789, 2 ** 40];
    for (let cents = 0; cents < 2_000_000; cents += 7919) amounts.push(cents);
    for (const cents of amounts) {
      expect(formatNzd(cents), String(cents)).toBe(intl.format(cents / 100));
      expect(formatNzd(-cents || -1), String(-cents)).toBe(intl.format((-cents || -1) / 100));
    }
  });

  it('never shows a minus sign on nothing', () => {
    expect(formatNzd(-0)).toBe('$0.00');
    expect(formatNzd(-0.4)).toBe('$0.00');
  });
});
