/**
 * One cold visit to a page in headless Chromium, timed to the first product name a shopper can
 * see. The check has to hold for the client-rendered app (an empty #root, then React and a
 * fetch of /api/products) and for a server-rendered one (the cards in the HTML), so it looks
 * only at what is on screen, never at how it got there:
 * - a product name is a link to /product/{id} in a heading inside an <article> inside a list
 *   item: the product card of features/catalog/product-grid.tsx, as the browser tests find it;
 * - it counts once it has text, a box, is not hidden (checkVisibility: display, visibility,
 *   opacity, content-visibility) and, where asked, lies at least partly in the first screen;
 * - it is checked in requestAnimationFrame, which runs only for a frame the browser is about
 *   to paint (not while a stylesheet still blocks rendering), and the time is taken from a
 *   message posted there, which runs once that frame has been painted.
 * Times are performance.now() in the page: milliseconds since the navigation started.
 */
import type { Browser } from '@playwright/test';

export const productNameSelector = 'li article :is(h1, h2, h3, h4, h5, h6) a[href^="/product/"]';
/** A phone-sized screen, as mobile Lighthouse and most shoppers see the shop. */
export const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const loadTimeoutMs = 30_000;

export interface VisitTiming {
  /** The first product name seen, and when; undefined when none showed in time. */
  firstProductMs?: number;
  productName?: string;
  /** The document's first byte and last byte, first contentful paint. */
  firstByteMs: number;
  documentMs: number;
  firstPaintMs?: number;
  /** Scripts and API calls that had finished by the first product (start and end of each). */
  scripts: Array<{ path: string; startMs: number; endMs: number }>;
  apiCalls: Array<{ path: string; startMs: number; endMs: number }>;
  error?: string;
}

interface ProbeOptions {
  selector: string;
  inFirstScreen: boolean;
}

interface SeenProduct {
  ms: number;
  name: string;
}

declare global {
  interface Window {
    __mangoFirstProduct?: SeenProduct;
    __mangoFirstProductShown?: Promise<SeenProduct>;
  }
}

/** Runs in the page before any of its own scripts; serialised, so it may use nothing from outside. */
function watchForFirstProduct({ selector, inFirstScreen }: ProbeOptions): void {
  const visible = (element: Element) => {
    const name = element.textContent?.trim() ?? '';
    const box = element.getBoundingClientRect();
    if (!name || box.width <= 0 || box.height <= 0) return undefined;
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return undefined;
    if (inFirstScreen && (box.bottom <= 0 || box.right <= 0 || box.top >= innerHeight || box.left >= innerWidth)) return undefined;
    return name;
  };
  const afterPaint = new MessageChannel();
  window.__mangoFirstProductShown = new Promise((resolve) => {
    const check = () => {
      for (const element of document.querySelectorAll(selector)) {
        const name = visible(element);
        if (name) {
          afterPaint.port1.onmessage = () => {
            window.__mangoFirstProduct = { ms: performance.now(), name };
            resolve(window.__mangoFirstProduct);
          };
          afterPaint.port2.postMessage(null);
          return;
        }
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/**
 * Opens `url` in a new browser context (its own empty cache, no service worker) with a phone's
 * screen and no throttling, and waits for the first product name.
 */
export async function timeFirstProduct(browser: Browser, url: string, inFirstScreen: boolean): Promise<VisitTiming> {
  const context = await browser.newContext({ ...phone, serviceWorkers: 'block' });
  try {
    const options: ProbeOptions = { selector: productNameSelector, inFirstScreen };
    await context.addInitScript({ content: `${inPage(watchForFirstProduct, options)};` });
    const page = await context.newPage();
    let error: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      await page.goto(url, { waitUntil: 'commit', timeout: loadTimeoutMs });
      // Not page.waitForFunction: it compiles its predicate in the page, which the shop's CSP forbids.
      await Promise.race([
        page.evaluate(() => window.__mangoFirstProductShown),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`no product name showed within ${loadTimeoutMs / 1000} s`)), loadTimeoutMs);
        }),
      ]);
    } catch (failure) {
      error = (failure as Error).message.split('\n')[0];
    } finally {
      clearTimeout(timer);
    }
    const timing = (await page.evaluate(inPage(readTimings))) as VisitTiming;
    return error ? { ...timing, firstProductMs: undefined, productName: undefined, error } : timing;
  } finally {
    await context.close();
  }
}

/**
 * A call of `run` as source for the page. tsx keeps function names with esbuild's __name helper,
 * which the page does not have: it gets one that does nothing.
 */
function inPage<T>(run: (options: T) => unknown, options?: T): string {
  return `(() => { const __name = (target) => target; return (${run.toString()})(${JSON.stringify(options) ?? ''}); })()`;
}

/** The page's own timings, read once the first product showed (or the wait gave up). */
function readTimings(): VisitTiming {
  const seen = window.__mangoFirstProduct;
  const until = seen?.ms ?? Infinity;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) => entry.responseEnd > 0 && entry.responseEnd <= until);
  const span = (entry: PerformanceResourceTiming) => ({ path: new URL(entry.name).pathname, startMs: entry.startTime, endMs: entry.responseEnd });
  return {
    firstProductMs: seen?.ms,
    productName: seen?.name,
    firstByteMs: navigation?.responseStart ?? NaN,
    documentMs: navigation?.responseEnd ?? NaN,
    firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    scripts: resources.filter((entry) => entry.initiatorType === 'script' || /\.m?js$/.test(new URL(entry.name).pathname)).map(span),
    apiCalls: resources.filter((entry) => new URL(entry.name).pathname.startsWith('/api/')).map(span),
  };
}
