import { dayKeys, type DayKey } from '../../contracts/days';
import type { PublicSettings } from '../../contracts/settings';

export type OpeningHoursSettings = Pick<PublicSettings, 'openingTime' | 'closingTime' | 'daysOpen'>;

/** Spec 2: shown instead of the hours when settings are missing (or unusable). */
export const openingHoursFallback = 'Check our store hours';

const hhmm = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Spec 2: hours show in 12-hour AM/PM ('17:30' -> '5:30 PM'); null when not a 24-hour 'HH:MM'. */
export function to12Hour(time: string | null | undefined): string | null {
  const match = time ? hhmm.exec(time) : null;
  if (!match) return null;
  const hours = Number(match[1]);
  const suffix = hours < 12 ? 'AM' : 'PM';
  return `${hours % 12 === 0 ? 12 : hours % 12}:${match[2]} ${suffix}`;
}

const namedPatterns: Array<[label: string, open: readonly DayKey[]]> = [
  ['(Mon-Fri)', ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']],
  ['(Mon-Sat)', ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']],
  ['(7 days)', dayKeys],
];

/**
 * Spec 2 names three patterns, (Mon-Fri), (Mon-Sat) and (7 days); any other week lists its open
 * days, e.g. '(Mon, Wed, Fri)'. Null when no day is open.
 */
export function openDaysLabel(daysOpen: Partial<Record<DayKey, boolean>>): string | null {
  const open = dayKeys.filter((day) => daysOpen[day] === true);
  if (open.length === 0) return null;
  const named = namedPatterns.find(([, days]) => days.length === open.length && days.every((day) => open.includes(day)));
  return named ? named[0] : `(${open.join(', ')})`;
}

/**
 * The footer's hours line, e.g. '9:00 AM - 5:00 PM (Mon-Sat)'. A shop with times but no day
 * marked open has nothing true to say, so it falls back like missing settings do.
 */
export function openingHoursLine(settings: OpeningHoursSettings | null | undefined): string {
  const opens = to12Hour(settings?.openingTime);
  const closes = to12Hour(settings?.closingTime);
  if (!settings || !opens || !closes) return openingHoursFallback;
  if (!settings.daysOpen) return `${opens} - ${closes}`;
  const days = openDaysLabel(settings.daysOpen);
  return days ? `${opens} - ${closes} ${days}` : openingHoursFallback;
}
