import { createContext, useContext } from 'react';
import { nzToday } from '../../contracts/nz-today';
import { useBrowserValue } from './browser-value';

export interface RenderTime {
  /** When the server drew the page (ms). */
  at: number;
  /** That instant's day in New Zealand (YYYY-MM-DD), worked out by the server: the browser needs no time-zone data to show its year or month. */
  nzDay: string;
}

/**
 * When the server drew the page (root.tsx): what the page shows of the clock is drawn from it, on
 * the server and again when the browser hydrates, so both draw the same.
 */
export const RenderTimeContext = createContext<RenderTime | undefined>(undefined);

/** Outside a server-drawn page (tests of one component), the time the module loaded. */
const loadedAt = Date.now();
let loadedOn: string | undefined;

export function useRenderTime(): number {
  return useContext(RenderTimeContext)?.at ?? loadedAt;
}

/** The New Zealand day the page was drawn on (YYYY-MM-DD). */
export function useRenderDay(): string {
  return useContext(RenderTimeContext)?.nzDay ?? (loadedOn ??= nzToday(loadedAt));
}

/**
 * Spec 4: the current month is the device's. The page is first drawn with the server's (NZ)
 * month, so hydration matches the HTML, then at once with the device's where they differ.
 */
export function useDeviceMonth(): number {
  return useBrowserValue(() => new Date().getMonth(), Number(useRenderDay().slice(5, 7)) - 1);
}
