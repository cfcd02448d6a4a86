import { createContext, useContext } from 'react';
import { monthInNz } from '../../contracts/dates';
import { useBrowserValue } from './browser-value';

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

/**
 * Spec 4: the current month is the device's. The page is first drawn with the server's (NZ)
 * month, so hydration matches the HTML, then at once with the device's where they differ.
 */
export function useDeviceMonth(): number {
  return useBrowserValue(() => new Date().getMonth(), monthInNz(useRenderTime()));
}
