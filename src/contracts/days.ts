/** The week as the settings' daysOpen keys (spec 3); kept apart from the schemas so the footer stays small. */
export const dayKeys = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export type DayKey = (typeof dayKeys)[number];

const byDayOfWeek: readonly DayKey[] = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The weekday of a calendar day (YYYY-MM-DD), wherever the code runs. */
export const weekdayOf = (date: string): DayKey => byDayOfWeek[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
