import { describe, expect, it } from 'vitest';
import { deliveryWords, howOftenWords, statusWords } from './season-box-words';

// 23:00 UTC on Tuesday 2 March is 12:00 pm on Wednesday 3 March in New Zealand (daylight time).
const cutoffAt = '2027-03-02T23:00:00.000Z';

describe("a season box's words on the account", () => {
  it('say how often and on which weekday', () => {
    expect(howOftenWords({ every: 'fortnight', weekday: 'Fri' })).toBe('Every fortnight on Friday');
    expect(howOftenWords({ every: 'week', weekday: 'Tue' })).toBe('Every week on Tuesday');
  });

  it('say until when a pause lasts', () => {
    expect(statusWords({ status: 'paused', pausedUntil: '2027-03-12' })).toBe('Paused until Friday 12 March');
    expect(statusWords({ status: 'paused', pausedUntil: null })).toBe('Paused');
    expect(statusWords({ status: 'active', pausedUntil: null })).toBe('Active');
    expect(statusWords({ status: 'ended', pausedUntil: null })).toBe('Season ended');
  });

  it("give an open box's cut-off, and what became of the others", () => {
    expect(deliveryWords({ state: 'scheduled', open: true, cutoffAt, note: null })).toBe('Skip or change by 12:00 pm on Wed, 3 March 2027');
    expect(deliveryWords({ state: 'skipped', open: true, cutoffAt, note: 'Skipped by you' })).toBe('Skipped by you. Bring it back by 12:00 pm on Wed, 3 March 2027');
    expect(deliveryWords({ state: 'skipped', open: false, cutoffAt, note: 'Not paid by the packing cut-off' })).toBe('Not paid by the packing cut-off');
    expect(deliveryWords({ state: 'paused', open: false, cutoffAt, note: null })).toBe('Paused: this box will not come.');
  });
});
