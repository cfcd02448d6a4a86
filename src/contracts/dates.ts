const nzDate = new Intl.DateTimeFormat('en-NZ', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Pacific/Auckland' });

/** en-NZ dates ("10 June 2027"); date-only strings are read as that calendar day. */
export function formatDate(value: string | Date): string {
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00+12:00`) : new Date(value);
  return nzDate.format(date);
}

const nzDateTime = new Intl.DateTimeFormat('en-NZ', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Pacific/Auckland',
});

/** en-NZ date and time in New Zealand's time zone ("21 Nov 2026, 3:05 pm"). */
export function formatDateTime(value: string | Date): string {
  return nzDateTime.format(new Date(value));
}

/** Date.parse rolls 30 February over to March; a real calendar day (YYYY-MM-DD) survives the round trip. */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
