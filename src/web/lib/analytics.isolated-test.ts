import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as analyticsModule from './analytics';
import type * as eventsModule from './analytics-events';

type Analytics = typeof analyticsModule & typeof eventsModule;

/** A stand-in for the browser: the scripts the module adds, and the globals gtag and fbq live on. */
interface FakeWindow {
  location: { origin: string };
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
  fbq?: { (...args: unknown[]): void; queue: unknown[][]; disablePushState?: boolean };
}

let fakeWindow: FakeWindow;
let scripts: string[];
let warn: ReturnType<typeof vi.spyOn>;

/** The module keeps its state per page load, so each test imports a fresh copy. */
async function freshAnalytics(): Promise<Analytics> {
  vi.resetModules();
  const [analytics, events] = await Promise.all([import('./analytics'), import('./analytics-events')]);
  return { ...analytics, ...events };
}

const gaHits = () => (fakeWindow.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
const pixelCalls = () => fakeWindow.fbq?.queue ?? [];

const alphonso = { id: 1, name: 'Alphonso Mangoes', price: 64.99 };

beforeEach(() => {
  fakeWindow = { location: { origin: 'https://mangoshop.co.nz' } };
  scripts = [];
  vi.stubGlobal('window', fakeWindow);
  vi.stubGlobal('document', {
    createElement: () => ({}),
    head: { appendChild: (script: { src: string }) => scripts.push(script.src) },
  });
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('startAnalytics', () => {
  it('loads both tools for their ids and sends the page view that waited for the settings', async () => {
    const analytics = await freshAnalytics();
    analytics.trackPageView('/shop');
    expect(scripts).toEqual([]);

    await analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '123456789' });
    expect(scripts).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-MANGO123', 'https://connect.facebook.net/en_US/fbevents.js']);
    expect(gaHits()).toEqual([
      ['js', expect.any(Date)],
      ['config', 'G-MANGO123', { send_page_view: false }],
      ['set', { page_location: 'https://mangoshop.co.nz/shop' }],
      ['event', 'page_view', { page_path: '/shop', page_location: 'https://mangoshop.co.nz/shop' }],
    ]);
    expect(pixelCalls()).toEqual([
      ['init', '123456789'],
      ['track', 'PageView'],
    ]);
    expect(fakeWindow.fbq?.disablePushState).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns for each missing id, loads nothing and drops what waited', async () => {
    const analytics = await freshAnalytics();
    analytics.trackPageView('/');
    await analytics.startAnalytics({ gaTrackingId: '', metaPixelId: ' ' });
    analytics.trackViewContent({ ...alphonso });
    analytics.trackPageView('/shop');

    expect(scripts).toEqual([]);
    expect(fakeWindow.dataLayer).toBeUndefined();
    expect(fakeWindow.gtag).toBeUndefined();
    expect(fakeWindow.fbq).toBeUndefined();
    expect(warn.mock.calls).toEqual([
      ['Google Analytics is off: no GA4 measurement id is set in settings.'],
      ['Meta pixel is off: no pixel id is set in settings.'],
    ]);
  });

  it('runs only the tool whose id is set', async () => {
    const analytics = await freshAnalytics();
    await analytics.startAnalytics({ gaTrackingId: '', metaPixelId: '123456789' });
    analytics.trackPageView('/');
    expect(scripts).toEqual(['https://connect.facebook.net/en_US/fbevents.js']);
    expect(fakeWindow.dataLayer).toBeUndefined();
    expect(pixelCalls()).toEqual([['init', '123456789'], ['track', 'PageView']]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('starts once per page load: later settings change nothing', async () => {
    const analytics = await freshAnalytics();
    await analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '' });
    await analytics.startAnalytics({ gaTrackingId: 'G-OTHER999', metaPixelId: '123456789' });
    expect(scripts).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-MANGO123']);
    expect(fakeWindow.fbq).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('starts once even when the settings come again while its code is loading, and keeps what is sent meanwhile', async () => {
    const analytics = await freshAnalytics();
    const first = analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '' });
    const second = analytics.startAnalytics({ gaTrackingId: 'G-OTHER999', metaPixelId: '' });
    analytics.trackPageView('/cart');
    await Promise.all([first, second]);
    expect(scripts).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-MANGO123']);
    expect(gaHits().filter((hit) => hit[0] === 'config')).toEqual([['config', 'G-MANGO123', { send_page_view: false }]]);
    expect(gaHits()).toContainEqual(['event', 'page_view', { page_path: '/cart', page_location: 'https://mangoshop.co.nz/cart' }]);
  });
});

describe('trackPageView', () => {
  it('reports each new path once, the same path twice in a row once', async () => {
    const analytics = await freshAnalytics();
    await analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '123456789' });
    for (const path of ['/', '/', '/shop', '/']) analytics.trackPageView(path);
    expect(gaHits().filter((hit) => hit[1] === 'page_view').map((hit) => (hit[2] as { page_path: string }).page_path)).toEqual(['/', '/shop', '/']);
    expect(pixelCalls().filter((call) => call[1] === 'PageView')).toHaveLength(3);
  });

  it('sends the path without its query string or fragment, so a reset token never leaves the page', async () => {
    const analytics = await freshAnalytics();
    await analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '123456789' });
    analytics.trackPageView('/reset-password?token=SOMESECRET#top');
    expect(gaHits().slice(-2)).toEqual([
      ['set', { page_location: 'https://mangoshop.co.nz/reset-password' }],
      ['event', 'page_view', { page_path: '/reset-password', page_location: 'https://mangoshop.co.nz/reset-password' }],
    ]);
    expect(JSON.stringify([gaHits(), pixelCalls()])).not.toMatch(/SOMESECRET|\?/);
  });

  it('still counts a new query string as a new view, sent as the same path', async () => {
    const analytics = await freshAnalytics();
    await analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '123456789' });
    for (const path of ['/shop?category=Alphonso', '/shop?category=Kesar']) analytics.trackPageView(path);
    expect(gaHits().filter((hit) => hit[1] === 'page_view').map((hit) => hit[2])).toEqual([
      { page_path: '/shop', page_location: 'https://mangoshop.co.nz/shop' },
      { page_path: '/shop', page_location: 'https://mangoshop.co.nz/shop' },
    ]);
    expect(pixelCalls().filter((call) => call[1] === 'PageView')).toHaveLength(2);
  });

  it('gives GA4 the page address without its query string for the events that follow', async () => {
    const analytics = await freshAnalytics();
    await analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '' });
    analytics.trackPageView('/success?order=1042');
    analytics.trackPurchase({ orderId: 1042, value: 64.99, products: [{ ...alphonso, quantity: 1 }] });
    const lastSet = gaHits().findLast((hit) => hit[0] === 'set');
    expect(lastSet).toEqual(['set', { page_location: 'https://mangoshop.co.nz/success' }]);
    expect(gaHits().at(-1)?.[1]).toBe('purchase');
  });
});

describe('shop events', () => {
  let analytics: Analytics;
  beforeEach(async () => {
    analytics = await freshAnalytics();
    await analytics.startAnalytics({ gaTrackingId: 'G-MANGO123', metaPixelId: '123456789' });
  });

  it('ViewContent carries the product and its price in NZD', () => {
    analytics.trackViewContent(alphonso);
    expect(pixelCalls().at(-1)).toEqual(['track', 'ViewContent', { content_ids: ['1'], content_name: 'Alphonso Mangoes', content_type: 'product', value: 64.99, currency: 'NZD' }]);
  });

  it('AddToCart values the line in dollars with 2 decimals', () => {
    analytics.trackAddToCart({ id: 3, name: 'Kesar Mangoes', price: 0.1 }, 3);
    expect(pixelCalls().at(-1)).toEqual([
      'track',
      'AddToCart',
      { content_ids: ['3'], content_name: 'Kesar Mangoes', content_type: 'product', contents: [{ id: '3', quantity: 3 }], value: 0.3, currency: 'NZD' },
    ]);
  });

  it('InitiateCheckout counts the items and takes the value the checkout gives', () => {
    const lines = [{ ...alphonso, quantity: 2 }, { id: 2, name: 'Kesar Mangoes', price: 54.5, quantity: 1 }];
    analytics.trackInitiateCheckout(lines);
    analytics.trackInitiateCheckout(lines, 196.48);
    const [bySum, given] = pixelCalls().slice(-2);
    expect(bySum).toEqual([
      'track',
      'InitiateCheckout',
      { content_ids: ['1', '2'], content_type: 'product', contents: [{ id: '1', quantity: 2 }, { id: '2', quantity: 1 }], num_items: 3, value: 184.48, currency: 'NZD' },
    ]);
    expect(given?.[2]).toMatchObject({ value: 196.48 });
  });

  it('a purchase goes to GA4 with its items and to the pixel, once per order', () => {
    const order = { orderId: 1042, value: 141.98, products: [{ ...alphonso, quantity: 2 }] };
    analytics.trackPurchase(order);
    analytics.trackPurchase(order);
    expect(gaHits().filter((hit) => hit[1] === 'purchase')).toEqual([
      ['event', 'purchase', { transaction_id: '1042', value: 141.98, currency: 'NZD', items: [{ item_id: '1', item_name: 'Alphonso Mangoes', price: 64.99, quantity: 2 }] }],
    ]);
    expect(pixelCalls().filter((call) => call[1] === 'Purchase')).toEqual([
      ['track', 'Purchase', { value: 141.98, currency: 'NZD', content_ids: ['1'], content_type: 'product', contents: [{ id: '1', quantity: 2 }] }, { eventID: 'order-1042' }],
    ]);
  });
});
