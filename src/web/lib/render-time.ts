import { createContext, useContext, useSyncExternalStore } from 'react';

const shopTimeZone = 'Pacific/Auckland';

/** The month of `at` in New Zealand, 0 for January. */
export function shopMonth(at: number): number {
  return Number(new Intl.DateTimeFormat('en-NZ', { timeZone: shopTimeZone, month: 'numeric' }).format(at)) - 1;
}

/** The year of `at` in New Zealand. */
export function shopYear(at: number): number {
  return Number(new Intl.DateTimeFormat('en-NZ', { timeZone: shopTimeZone, year: 'numeric' }).format(at));
}

/**
 * When the server drew the page (root.tsx): what the page shows of the clock is drawn from it, on
 * the server and again when the browser hydrates, so both draw the same.
 */
export const RenderTimeContext = createContext<number | undefined>(undefined);

/** Outside a server-drawn page (tests of one component), the time the module loaded. */
const loadedAt = Date.now();

export function useRenderTime(): number {
  return useContext(RenderTimeContext) ?? loadedAt;
}

const deviceMonth = () => new Date().getMonth();
// Read once per render: the month is not watched while the page is open (spec 4: read at load).
const noChanges = () => () => {};

/**
 * Spec 4: the current month is the device's. The page is first drawn with the server's (NZ)
 * month, so hydration matches the HTML, then at once with the device's where they differ.
 */
export function useDeviceMonth(): number {
  const renderedAt = useContext(RenderTimeContext);
  return useSyncExternalStore(noChanges, deviceMonth, () => (renderedAt === undefined ? deviceMonth() : shopMonth(renderedAt)));
}
