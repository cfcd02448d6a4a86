import { useEffect, useState } from 'react';
import { useBrowserValue } from './browser-value';
import { useRenderTime } from './render-time';

/**
 * The shop's clock in the browser: the device's clock corrected by what the server says the time
 * is (GET /api/time), so a countdown turns when the shop opens, not when a phone set a few minutes
 * fast thinks it does. Only for what the page shows: the server decides by its own clock.
 */
let offsetMs: number | undefined;
let learning: Promise<void> | undefined;

function learnOffset(): Promise<void> {
  learning ??= (async () => {
    try {
      const sent = Date.now();
      const response = await fetch('/api/time', { cache: 'no-store', credentials: 'same-origin' });
      const shopTime = response.ok ? Date.parse(((await response.json()) as { now?: unknown }).now as string) : Number.NaN;
      const received = Date.now();
      // The server read its clock about halfway through the round trip.
      offsetMs = Number.isFinite(shopTime) ? shopTime - (sent + received) / 2 : 0;
    } catch {
      // Offline or blocked: the device's own clock is the best there is.
      offsetMs = 0;
    }
  })();
  return learning;
}

/** The shop's time as this browser knows it: its own clock until the shop has answered. */
function shopNow(): number {
  return Date.now() + (offsetMs ?? 0);
}

const secondMs = 1000;
const minuteMs = 60 * secondMs;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/**
 * Milliseconds until `target` (ISO) by the shop's clock, ticking every second; 0 once it has
 * passed, null without a target. The page hydrates with the server's render time, as drawn.
 */
export function useTimeUntil(target: string | null): number | null {
  const renderedAt = useRenderTime();
  // Hydrating, the page is drawn as the server drew it; drawn later (a dialog, another page), by
  // the shop's clock as far as this visit knows it: the render time may be long past.
  const hydrated = useBrowserValue(() => true, false);
  const at = target === null ? null : Date.parse(target);
  const [now, setNow] = useState(() => (hydrated ? shopNow() : renderedAt));
  // An opening already behind the time the page was drawn at needs no clock: nothing is asked.
  const passed = at === null || at <= now;
  useEffect(() => {
    if (at === null || passed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = () => {
      if (stopped) return;
      const current = shopNow();
      setNow(current);
      if (current >= at) return;
      // On the next whole second of the countdown, or at the instant itself.
      const left = at - current;
      timer = setTimeout(tick, Math.min(left, left % secondMs || secondMs));
    };
    void learnOffset().then(tick);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [at, passed]);
  return at === null ? null : Math.max(at - now, 0);
}

/** How long until an opening, as a shopper reads it: "2 days 4 hours", "3 hours 12 minutes", "04:59". */
export function formatTimeLeft(left: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  // Whole seconds, rounded up as a countdown shows them: 00:01 until the instant, and 59:59 the
  // second after the hour's mark, never 60:00.
  const ms = Math.ceil(left / secondMs) * secondMs;
  if (ms >= dayMs) {
    const days = Math.floor(ms / dayMs);
    const hours = Math.floor((ms % dayMs) / hourMs);
    return hours ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day');
  }
  if (ms >= hourMs) {
    const hours = Math.floor(ms / hourMs);
    const minutes = Math.floor((ms % hourMs) / minuteMs);
    return minutes ? `${plural(hours, 'hour')} ${plural(minutes, 'minute')}` : plural(hours, 'hour');
  }
  const seconds = ms / secondMs;
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
