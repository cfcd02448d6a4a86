/** Spec 3: each variety has a status per month; 'available' is styled but no variety uses it. */
export const monthKeys = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
export type MonthKey = (typeof monthKeys)[number];
export type MonthStatus = 'peak' | 'available' | 'none';

export interface Variety {
  name: string;
  peakMonths: readonly MonthKey[];
  availableMonths?: readonly MonthKey[];
}

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

/** The banner names the month in full ("Currently in Season (June)"); months are Date#getMonth() indexes. */
export function fullMonthName(monthIndex: number): string {
  return monthNames[monthIndex] ?? '';
}

export function monthKeyOf(monthIndex: number): MonthKey {
  const key = monthKeys[monthIndex];
  if (!key) throw new RangeError(`No month at index ${monthIndex}`);
  return key;
}

export function monthStatus(variety: Variety, month: MonthKey): MonthStatus {
  if (variety.peakMonths.includes(month)) return 'peak';
  if (variety.availableMonths?.includes(month)) return 'available';
  return 'none';
}

export function varietiesAtPeak(varieties: readonly Variety[], month: MonthKey): Variety[] {
  return varieties.filter((variety) => monthStatus(variety, month) === 'peak');
}

/** Spec 2: 'N variety/varieties in peak season', singular only for exactly one. */
export function peakCountText(count: number): string {
  return `${count} ${count === 1 ? 'variety' : 'varieties'} in peak season`;
}
