import { describe, expect, it } from 'vitest';
import { addDays, formatDate, formatDay, formatDayMonth } from './dates';

describe('calendar days written without Intl', () => {
  const date = new Intl.DateTimeFormat('en-NZ', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Pacific/Auckland' });
  const dayMonth = new Intl.DateTimeFormat('en-NZ', { day: 'numeric', month: 'long', timeZone: 'Pacific/Auckland' });
  const weekday = new Intl.DateTimeFormat('en-NZ', { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Pacific/Auckland' });

  it('reads as en-NZ does', () => {
    expect(formatDate('2027-06-10')).toBe('10 June 2027');
    expect(formatDay('2027-03-03')).toBe('Wed, 3 March 2027');
  });

  it('agrees with Intl on every day of four years, daylight saving changes and a leap day included', () => {
    for (let day = '2026-01-01'; day < '2030-01-01'; day = addDays(day, 1)) {
      const noon = new Date(`${day}T12:00:00+12:00`);
      expect(formatDate(day), day).toBe(date.format(noon));
      expect(formatDay(day), day).toBe(weekday.format(noon));
      expect(formatDayMonth(day), day).toBe(dayMonth.format(noon));
    }
  });

  it('leaves instants to Intl, in New Zealand time', () => {
    expect(formatDate('2026-11-26T11:30:00Z')).toBe('27 November 2026');
    expect(formatDate(new Date('2026-11-26T10:59:00Z'))).toBe('26 November 2026');
  });
});
