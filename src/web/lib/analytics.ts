import type { PublicSettings } from '../../contracts/settings';

export type AnalyticsIds = PublicSettings['analytics'];

type Tool = 'ga' | 'meta';
export type Call = unknown[];

/** Events that arrive before the settings are kept, up to a point, then sent or dropped. */
const maxWaitingCalls = 50;
const state: Record<Tool, 'waiting' | 'starting' | 'off' | 'on'> = { ga: 'waiting', meta: 'waiting' };
const waiting: Record<Tool, Call[]> = { ga: [], meta: [] };
let lastPageAddress: string | null = null;
function call(tool: Tool, args: Call): void {
  if (tool === 'ga') window.gtag?.(...args);
  else window.fbq?.(...args);
}

export function send(tool: Tool, ...args: Call): void {
  if (state[tool] === 'on') call(tool, args);
  else if ((state[tool] === 'waiting' || state[tool] === 'starting') && waiting[tool].length < maxWaitingCalls) waiting[tool].push(args);
}

async function settle(tool: Tool, id: string, missing: string): Promise<void> {
  if (state[tool] !== 'waiting') return;
  if (!id) {
    // ARCHITECTURE difference 8: no fallback id, so a missing one means no tracking at all.
    console.warn(missing);
    state[tool] = 'off';
    waiting[tool] = [];
    return;
  }
  state[tool] = 'starting';
  try {
    // The code that starts the tools loads only where an id is set.
    const tools = await import('./analytics-tools');
    if (tool === 'ga') tools.startGoogleAnalytics(id);
    else tools.startMetaPixel(id);
    state[tool] = 'on';
    for (const args of waiting[tool]) call(tool, args);
  } catch (error) {
    console.warn('Analytics could not start:', error);
    state[tool] = 'off';
  }
  waiting[tool] = [];
}

/**
 * Loads GA4 and the Meta pixel for the ids in settings, once per page load, and sends what waited
 * for them. Pass empty ids when the settings could not be read: tracking stays off. The first call
 * settles once both are started or off; later calls change nothing and settle at once.
 */
export async function startAnalytics(ids: AnalyticsIds): Promise<void> {
  await Promise.all([
    settle('ga', ids.gaTrackingId.trim(), 'Google Analytics is off: no GA4 measurement id is set in settings.'),
    settle('meta', ids.metaPixelId.trim(), 'Meta pixel is off: no pixel id is set in settings.'),
  ]);
}


/**
 * page_view (GA4) and PageView (Meta) for a route; a repeat of the same address is not a new view.
 * GA4 gets the path only: a query string can carry a secret. The Meta pixel reads the whole address
 * itself, at times it chooses, so a secret must leave the address before it loads, as the reset
 * token does (docs/decisions/0007, which records this exception).
 */
export function trackPageView(address: string): void {
  if (address === lastPageAddress) return;
  lastPageAddress = address;
  const pagePath = address.split(/[?#]/, 1)[0] ?? '';
  const pageLocation = window.location.origin + pagePath;
  // gtag.js would take page_location from document.location, query and all, for later events.
  send('ga', 'set', { page_location: pageLocation });
  send('ga', 'event', 'page_view', { page_path: pagePath, page_location: pageLocation });
  send('meta', 'track', 'PageView');
}
