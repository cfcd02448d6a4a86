import { describe, expect, it } from 'vitest';
import { shopRules } from '../../../contracts/shop-rules';
import { fullMonthName, monthKeyOf, monthKeys, monthStatus, peakCountText, varietiesAtPeak } from './season-calendar';
import { varieties } from './varieties';

const names = (month: Parameters<typeof varietiesAtPeak>[1]) => varietiesAtPeak(varieties, month).map((v) => v.name);

describe('the season calendar', () => {
  it('has the 21 varieties of spec 3 and 12 months', () => {
    expect(varieties).toHaveLength(shopRules.chartVarietyCount);
    expect(new Set(varieties.map((v) => v.name)).size).toBe(shopRules.chartVarietyCount);
    expect(monthKeys).toHaveLength(12);
  });

  it('puts every variety but Chausa at its peak in June', () => {
    expect(names('Jun')).toHaveLength(20);
    expect(names('Jun')).not.toContain('Chausa');
  });

  it('finds the April, July and August peaks of spec 3', () => {
    expect(names('Apr')).toEqual(['Alphonso', 'Banganapalli', 'Avakai']);
    expect(names('Jul')).toEqual(['Kesar', 'Dasheri', 'Langra', 'Chausa', 'Malda', 'Totapuri', 'Neelam', 'Mallika', 'Amrapali', 'Pairi', 'Sindoora', 'Sonpari']);
    expect(names('Aug')).toEqual(['Chausa']);
  });

  it('has no peaks from September to March', () => {
    for (const month of ['Sep', 'Oct', 'Nov', 'Dec', 'Jan', 'Feb', 'Mar'] as const) expect(names(month)).toEqual([]);
  });

  it("reads a month's status as peak, available or none", () => {
    const variety = { name: 'Test', peakMonths: ['Jun'], availableMonths: ['Jul'] } as const;
    expect(monthStatus(variety, 'Jun')).toBe('peak');
    expect(monthStatus(variety, 'Jul')).toBe('available');
    expect(monthStatus(variety, 'Aug')).toBe('none');
  });

  it('names months in full from Date#getMonth indexes', () => {
    expect(fullMonthName(0)).toBe('January');
    expect(fullMonthName(5)).toBe('June');
    expect(fullMonthName(10)).toBe('November');
    expect(monthKeyOf(5)).toBe('Jun');
    expect(() => monthKeyOf(12)).toThrow(RangeError);
  });

  it('counts peak varieties in the singular only for one', () => {
    expect(peakCountText(0)).toBe('0 varieties in peak season');
    expect(peakCountText(1)).toBe('1 variety in peak season');
    expect(peakCountText(20)).toBe('20 varieties in peak season');
  });
});
