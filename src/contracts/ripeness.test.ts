import { describe, expect, it } from 'vitest';
import { formatDayRange, readyToEatLine, ripeWindow, spanOf } from './ripeness';

describe('a variety\u2019s ripening clock', () => {
  it('counts ready days from the harvest, both ends included', () => {
    expect(ripeWindow('2026-11-30', { ripeningDays: 8, daysAtBest: 5 })).toEqual({ from: '2026-12-08', until: '2026-12-12' });
    expect(ripeWindow('2026-11-30', { ripeningDays: 0, daysAtBest: 1 })).toEqual({ from: '2026-11-30', until: '2026-11-30' });
    expect(spanOf([{ from: '2026-12-08', until: '2026-12-12' }, { from: '2026-12-06', until: '2026-12-10' }])).toEqual({ from: '2026-12-06', until: '2026-12-12' });
    expect(spanOf([])).toBeNull();
  });

  it('writes a range of days the way a shopper says it', () => {
    expect(formatDayRange({ from: '2026-12-08', until: '2026-12-12' })).toBe('8–12 December');
    expect(formatDayRange({ from: '2026-11-29', until: '2026-12-03' })).toBe('29 November – 3 December');
    expect(formatDayRange({ from: '2026-12-30', until: '2027-01-03' })).toBe('30 December 2026 – 3 January 2027');
    expect(formatDayRange({ from: '2026-12-08', until: '2026-12-08' })).toBe('8 December');
  });

  it('tells the product page when boxes sent now are ready, and says nothing it cannot know', () => {
    const product = { ripeningDays: 8, daysAtBest: 5, nextHarvestedOn: '2026-11-30' };
    expect(readyToEatLine(product, '2026-12-01')).toBe('Ready to eat around 8–12 December');
    expect(readyToEatLine(product, '2026-12-06')).toBe('Ready to eat around 8–12 December');
    // Boxes sent today arrive tomorrow at the earliest.
    expect(readyToEatLine(product, '2026-12-07')).toBe('Ready to eat when it arrives, at its best until 12 December');
    expect(readyToEatLine(product, '2026-12-11')).toBe('Ready to eat when it arrives, at its best until 12 December');
    expect(readyToEatLine(product, '2026-12-12'), 'past its best on arrival').toBeNull();
    expect(readyToEatLine({ ...product, nextHarvestedOn: null }, '2026-12-01'), 'harvest unknown').toBeNull();
    expect(readyToEatLine({ ...product, ripeningDays: null, daysAtBest: null }, '2026-12-01'), 'no clock set').toBeNull();
  });
});
