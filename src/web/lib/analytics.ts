import { centsToDollars, dollarsToCents } from '../../contracts/money';
import type { PublicSettings } from '../../contracts/settings';
import { shopRules } from '../../contracts/shop-rules';

/** Spec 3's tracking data: prices and values in dollars, as the API answers them. */
export interface TrackedProduct {
  id: number;
  name: string;
  price: number;
  quantity: number;
}

export interface TrackedOrder {
  orderId: number | string;
  /** The amount the shopper pays, in dollars. */
  value: number;
  products: TrackedProduct[];
}

export type AnalyticsIds = PublicSettings['analytics'];

type Tool = 'ga' | 'meta';
type Call = unknown[];

interface Fbq {
  (...args: Call): void;
  callMethod?: (...args: Call) => void;
  queue: Call[];
  push: Fbq;
  loaded: boolean;
  version: string;
  disablePushState?: boolean;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: Call) => void;
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

/** Events that arrive before the settings are kept, up to a point, then sent or dropped. */
const maxWaitingCalls = 50;
const state: Record<Tool, 'waiting' | 'off' | 'on'> = { ga: 'waiting', meta: 'waiting' };
const waiting: Record<Tool, Call[]> = { ga: [], meta: [] };
let lastPageAddress: string | null = null;
function loadScript(src: string): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

function startGoogleAnalytics(id: string): void {
  const dataLayer = (window.dataLayer ??= []);
  // gtag.js reads `arguments` objects from the data layer; arrays are ignored.
  window.gtag = function gtag() {
    // eslint-disable-next-line prefer-rest-params
    dataLayer.push(arguments);
  };
  window.gtag('js', new Date());
  // The app is a single page: page views are sent on each route change, not by the config.
  window.gtag('config', id, { send_page_view: false });
  loadScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`);
}

function startMetaPixel(id: string): void {
  const fbq = function (...args: Call) {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue.push(args);
  } as Fbq;
  fbq.queue = [];
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  // The pixel would add a PageView of its own on every history change; ours already send one.
  fbq.disablePushState = true;
  window.fbq = fbq;
  window._fbq = fbq;
  fbq('init', id);
  loadScript('https://connect.facebook.net/en_US/fbevents.js');
}

function call(tool: Tool, args: Call): void {
  if (tool === 'ga') window.gtag?.(...args);
  else window.fbq?.(...args);
}

export function send(tool: Tool, ...args: Call): void {
  if (state[tool] === 'on') call(tool, args);
  else if (state[tool] === 'waiting' && waiting[tool].length < maxWaitingCalls) waiting[tool].push(args);
}

function settle(tool: Tool, id: string, start: (id: string) => void, missing: string): void {
  if (state[tool] !== 'waiting') return;
  if (id) {
    start(id);
    state[tool] = 'on';
    for (const args of waiting[tool]) call(tool, args);
  } else {
    // ARCHITECTURE difference 8: no fallback id, so a missing one means no tracking at all.
    console.warn(missing);
    state[tool] = 'off';
  }
  waiting[tool] = [];
}

/**
 * Loads GA4 and the Meta pixel for the ids in settings, once per page load, and sends what waited
 * for them. Pass empty ids when the settings could not be read: tracking stays off.
 */
export function startAnalytics(ids: AnalyticsIds): void {
  settle('ga', ids.gaTrackingId.trim(), startGoogleAnalytics, 'Google Analytics is off: no GA4 measurement id is set in settings.');
  settle('meta', ids.metaPixelId.trim(), startMetaPixel, 'Meta pixel is off: no pixel id is set in settings.');
}

export const dollars = (amount: number) => centsToDollars(dollarsToCents(amount));
export const lineValue = (products: TrackedProduct[]) =>
  centsToDollars(products.reduce((sum, product) => sum + dollarsToCents(product.price) * product.quantity, 0));
export const contentIds = (products: Array<{ id: number }>) => products.map((product) => String(product.id));
export const contents = (products: TrackedProduct[]) => products.map((product) => ({ id: String(product.id), quantity: product.quantity }));

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

export function trackAddToCart(product: { id: number; name: string; price: number }, quantity: number): void {
  const line = { ...product, quantity };
  send('meta', 'track', 'AddToCart', {
    content_ids: contentIds([line]),
    content_name: product.name,
    content_type: 'product',
    contents: contents([line]),
    value: lineValue([line]),
    currency: shopRules.currency,
  });
}
