import { describe, expect, it } from 'vitest';
import type { DayKey } from '../../contracts/settings';
import { openDaysLabel, openingHoursLine, to12Hour, type OpeningHoursSettings } from './opening-hours';

function week(...open: DayKey[]): Record<DayKey, boolean> {
  const days: Record<DayKey, boolean> = { Mon: false, Tue: false, Wed: false, Thu: false, Fri: false, Sat: false, Sun: false };
  for (const day of open) days[day] = true;
  return days;
}

const monToSat = week('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat');
const settings = (openingTime: string | null, closingTime: string | null, daysOpen = monToSat): OpeningHoursSettings => ({ openingTime, closingTime, daysOpen });

describe('to12Hour', () => {
  it.each([
    ['09:00', '9:00 AM'],
    ['17:30', '5:30 PM'],
    ['00:00', '12:00 AM'],
    ['00:05', '12:05 AM'],
    ['12:00', '12:00 PM'],
    ['12:45', '12:45 PM'],
    ['11:59', '11:59 AM'],
    ['23:59', '11:59 PM'],
  ])('reads %s as %s', (time, expected) => {
    expect(to12Hour(time)).toBe(expected);
  });

  it.each([null, undefined, '', '9:00', '24:00', '12:60', 'noon', '09:00:00'])('refuses %j', (time) => {
    expect(to12Hour(time)).toBeNull();
  });
});

describe('openDaysLabel', () => {
  it('names Monday to Friday, Monday to Saturday and the whole week (spec 2)', () => {
    expect(openDaysLabel(week('Mon', 'Tue', 'Wed', 'Thu', 'Fri'))).toBe('(Mon-Fri)');
    expect(openDaysLabel(monToSat)).toBe('(Mon-Sat)');
    expect(openDaysLabel(week('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'))).toBe('(7 days)');
  });

  it('lists the open days in week order for any other pattern', () => {
    expect(openDaysLabel(week('Fri', 'Mon', 'Wed'))).toBe('(Mon, Wed, Fri)');
    expect(openDaysLabel(week('Tue', 'Wed', 'Thu', 'Fri', 'Sat'))).toBe('(Tue, Wed, Thu, Fri, Sat)');
    expect(openDaysLabel(week('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sun'))).toBe('(Mon, Tue, Wed, Thu, Fri, Sun)');
    expect(openDaysLabel(week('Sun'))).toBe('(Sun)');
  });

  it('has no label when no day is open', () => {
    expect(openDaysLabel(week())).toBeNull();
  });
});

describe('openingHoursLine', () => {
  it('joins the hours and the days', () => {
    expect(openingHoursLine(settings('09:00', '17:00'))).toBe('9:00 AM - 5:00 PM (Mon-Sat)');
    expect(openingHoursLine(settings('08:30', '18:00', week('Mon', 'Tue', 'Wed', 'Thu', 'Fri')))).toBe('8:30 AM - 6:00 PM (Mon-Fri)');
    expect(openingHoursLine(settings('10:00', '16:00', week('Sat', 'Sun')))).toBe('10:00 AM - 4:00 PM (Sat, Sun)');
  });

  it('falls back to "Check our store hours" when settings are missing (spec 2)', () => {
    expect(openingHoursLine(null)).toBe('Check our store hours');
    expect(openingHoursLine(undefined)).toBe('Check our store hours');
  });

  it('falls back when a time is null or not a 24-hour HH:MM', () => {
    expect(openingHoursLine(settings(null, '17:00'))).toBe('Check our store hours');
    expect(openingHoursLine(settings('09:00', null))).toBe('Check our store hours');
    expect(openingHoursLine(settings('9am', '17:00'))).toBe('Check our store hours');
    expect(openingHoursLine(settings('09:00', '25:00'))).toBe('Check our store hours');
  });

  it('falls back when no day is open', () => {
    expect(openingHoursLine(settings('09:00', '17:00', week()))).toBe('Check our store hours');
  });
});
