import { createContext, useContext, useSyncExternalStore } from 'react';

const shopTimeZone = 'Pacific/Auckland';

/** The month now in New Zealand, 0 for January (the server draws the season chart with it). */
export function shopMonthNow(now = new Date()): number {
  return Number(new Intl.DateTimeFormat('en-NZ', { timeZone: shopTimeZone, month: 'numeric' }).format(now)) - 1;
}

const deviceMonth = () => new Date().getMonth();
// Read once per render: the month is not watched while the page is open (spec 4: read at load).
const noChanges = () => () => {};

/** The month the server drew the page for (root.tsx). */
export const RenderMonthContext = createContext<number | undefined>(undefined);

/**
 * Spec 4: the current month is the device's. The page is first drawn with the server's month, so
 * hydration matches the HTML, and then with the device's when they differ (a month's edge abroad).
 */
export function useDeviceMonth(): number {
  const rendered = useContext(RenderMonthContext);
  return useSyncExternalStore(noChanges, deviceMonth, () => rendered ?? deviceMonth());
}
