import { describe, expect, it } from 'vitest';
import { nzToday, nextWorkingDay } from './dates';
import { expectedDispatch, shipmentSchema } from './pre-order';

describe('expectedDispatch', () => {
  const at = (iso: string) => new Date(iso).getTime();

  it('is the working day after the arrival, Friday to Sunday leading to Monday', () => {
    const before = at('2027-06-01T00:00:00Z');
    expect(expectedDispatch('2027-06-08', before)).toBe('2027-06-09'); // Tuesday
    expect(expectedDispatch('2027-06-11', before)).toBe('2027-06-14'); // Friday
    expect(expectedDispatch('2027-06-12', before)).toBe('2027-06-14'); // Saturday
    expect(expectedDispatch('2027-06-13', before)).toBe('2027-06-14'); // Sunday
  });

  it('counts from today for a shipment recorded late, in New Zealand time', () => {
    // 11:30 UTC on 23 November is 00:30 on the 24th in Auckland (daylight time, +13).
    expect(nzToday(at('2026-11-23T11:30:00Z'))).toBe('2026-11-24');
    expect(expectedDispatch('2026-11-20', at('2026-11-23T11:30:00Z'))).toBe('2026-11-25');
    expect(expectedDispatch('2026-11-20', at('2026-11-23T10:30:00Z'))).toBe('2026-11-24');
    // Standard time (+12) in June.
    expect(nzToday(at('2027-06-10T12:30:00Z'))).toBe('2027-06-11');
  });

  it('steps over a year end', () => {
    expect(nextWorkingDay('2027-12-31')).toBe('2028-01-03');
  });
});

describe('shipmentSchema', () => {
  it('refuses an arrival date in the future, and an impossible date with one message', () => {
    const tomorrow = nextWorkingDay(nzToday(Date.now()));
    expect(shipmentSchema.safeParse({ boxes: 2, arrivalDate: tomorrow }).error?.issues.map((issue) => issue.message)).toEqual([
      'Arrival date cannot be in the future: record the shipment when it arrives',
    ]);
    expect(shipmentSchema.safeParse({ boxes: 2, arrivalDate: '2027-02-30' }).error?.issues.map((issue) => issue.message)).toEqual(['Arrival date must be a real date']);
    expect(shipmentSchema.safeParse({ boxes: 2, arrivalDate: nzToday(Date.now()) }).success).toBe(true);
  });
});
