/** The week as the settings' daysOpen keys (spec 3); kept apart from the schemas so the footer stays small. */
export const dayKeys = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export type DayKey = (typeof dayKeys)[number];
