import { describe, expect, it } from 'vitest';
import { dayWords } from '../../../contracts/season-box-terms';
import { discountWords, offersSeasonBox } from './season-box-terms';

describe("the product page's season box terms", () => {
  it('write a day as the season box e-mails do', () => {
    expect(dayWords('2027-04-02')).toBe('Friday 2 April');
    expect(dayWords('2026-12-13')).toBe('Sunday 13 December');
  });

  it('say the discount only when there is one', () => {
    expect(discountWords(10)).toBe(' (10% off)');
    expect(discountWords(0)).toBe('');
  });

  it('offer a season box for a subscribable product in stock until its season is over', () => {
    const product = { subscribable: true, isPreOrder: false, seasonEndsOn: '2027-04-02' };
    expect(offersSeasonBox(product, '2027-04-02')).toBe(true);
    expect(offersSeasonBox(product, '2027-04-03')).toBe(false);
    expect(offersSeasonBox({ ...product, seasonEndsOn: null }, '2030-01-01')).toBe(true);
    expect(offersSeasonBox({ ...product, isPreOrder: true }, '2027-01-01')).toBe(false);
    expect(offersSeasonBox({ ...product, subscribable: false }, '2027-01-01')).toBe(false);
  });
});
