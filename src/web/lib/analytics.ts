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
const purchasedOrders = new Set<string>();
/** Orders already reported, kept in the browser so reloading the success page is not a second sale. */
const purchasesStoreKey = 'trackedPurchases';

function purchaseTracked(orderId: string): boolean {
  if (purchasedOrders.has(orderId)) return true;
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem(purchasesStoreKey) ?? '[]') as unknown;
    return Array.isArray(stored) && stored.includes(orderId);
  } catch {
    return false;
  }
}

function rememberPurchase(orderId: string): void {
  purchasedOrders.add(orderId);
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem(purchasesStoreKey) ?? '[]') as unknown;
    const ids = Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
    globalThis.localStorage?.setItem(purchasesStoreKey, JSON.stringify([...ids, orderId].slice(-50)));
  } catch {
    // Storage may be full or blocked; the in-memory set still stops repeats on this page.
  }
}

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

function send(tool: Tool, ...args: Call): void {
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

const dollars = (amount: number) => centsToDollars(dollarsToCents(amount));
const lineValue = (products: TrackedProduct[]) =>
  centsToDollars(products.reduce((sum, product) => sum + dollarsToCents(product.price) * product.quantity, 0));
const contentIds = (products: Array<{ id: number }>) => products.map((product) => String(product.id));
const contents = (products: TrackedProduct[]) => products.map((product) => ({ id: String(product.id), quantity: product.quantity }));

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

export function trackViewContent(product: { id: number; name: string; price: number }): void {
  send('meta', 'track', 'ViewContent', {
    content_ids: contentIds([product]),
    content_name: product.name,
    content_type: 'product',
    value: dollars(product.price),
    currency: shopRules.currency,
  });
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

/** `value` is what the checkout asks for, in dollars; by default the sum of the lines. */
export function trackInitiateCheckout(products: TrackedProduct[], value: number = lineValue(products)): void {
  send('meta', 'track', 'InitiateCheckout', {
    content_ids: contentIds(products),
    content_type: 'product',
    contents: contents(products),
    num_items: products.reduce((sum, product) => sum + product.quantity, 0),
    value: dollars(value),
    currency: shopRules.currency,
  });
}

/** Once per order: a success page shown again (remount, back button) is not a second sale. */
export function trackPurchase(order: TrackedOrder): void {
  const orderId = String(order.orderId);
  if (purchaseTracked(orderId)) return;
  rememberPurchase(orderId);
  const value = dollars(order.value);
  send('ga', 'event', 'purchase', {
    transaction_id: orderId,
    value,
    currency: shopRules.currency,
    items: order.products.map((product) => ({ item_id: String(product.id), item_name: product.name, price: dollars(product.price), quantity: product.quantity })),
  });
  send('meta', 'track', 'Purchase', {
    value,
    currency: shopRules.currency,
    content_ids: contentIds(order.products),
    content_type: 'product',
    contents: contents(order.products),
  }, { eventID: `order-${orderId}` });
}
