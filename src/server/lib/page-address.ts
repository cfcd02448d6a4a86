import type { FastifyRequest } from 'fastify';
import { appRoutes } from '../../contracts/routes';
import { shopSortOptions } from '../../contracts/product';

/**
 * Which address a page request is drawn for: the shop's own origin (never one a Host header
 * makes up), and for a visitor the path and only the parameters pages read, the page cache's key.
 */

const hostPattern = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin pages are drawn for: PUBLIC_URL's when set, else the request's own, if its Host is a
 * host name (a Host such as 'x?' or 'a/b' would make the page another page's). Null: refuse it.
 */
export function siteOrigin(request: FastifyRequest, publicUrl: string | undefined): string | null {
  if (publicUrl) return new URL(publicUrl).origin;
  return hostPattern.test(request.host) ? `${request.protocol}://${request.host.toLowerCase()}` : null;
}

/**
 * The query parameters each storefront page reads, with the values that change what it draws;
 * any other parameter (utm_source, fbclid, a made-up one) does not make another page.
 */
const pageParams: Record<string, Record<string, (value: string) => boolean>> = {
  '/shop': { category: (value) => value.length > 0 && value.length <= 100, sort: (value) => shopSorts.has(value) },
  '/auth': { signup: (value) => value === 'true', redirect: (value) => value.startsWith('/') && value.length <= 500 },
  '/success': { order: (value) => value.length <= 40 },
};
/** The shop's sort orders other than the default. */
const shopSorts = new Set<string>(shopSortOptions.slice(1).map((option) => option.value));

/**
 * A number is one number however many zeros lead it (/product/007 is product 7). Segment by
 * segment, each looked at once: the work grows with the path's length and no further.
 */
function withoutLeadingZeros(segment: string): string {
  if (segment.length < 2 || segment[0] !== '0' || !/^\d+$/.test(segment)) return segment;
  let start = 0;
  while (start < segment.length - 1 && segment[start] === '0') start += 1;
  return segment.slice(start);
}

/**
 * A visitor's page address as it is drawn and kept: the path in one spelling (lower case, as the
 * shop's addresses are, numbers without leading zeros, no trailing slash) and the parameters its page reads,
 * each once, sorted. The maintenance bypass (`?bypass=maintenance`) is read on every page.
 */
export function visitorPageUrl(origin: string, requestUrl: string): URL {
  const url = new URL(`${origin}${requestUrl.startsWith('/') ? requestUrl : `/${requestUrl}`}`);
  const path = url.pathname
    .replace(/%([0-9a-f]{2})/gi, (escaped: string, hex: string) => {
      const character = String.fromCharCode(parseInt(hex, 16));
      return /[\w.~-]/.test(character) ? character : escaped;
    })
    .toLowerCase()
    .split('/')
    .map(withoutLeadingZeros)
    .join('/')
    // One trailing slash is the same page to the router; doubled slashes are not (a 404 there).
    .replace(/([^/])\/$/, '$1');
  const read = { ...pageParams[path], bypass: (value: string) => value === 'maintenance' };
  const kept = new Map<string, string>();
  for (const [name, value] of url.searchParams) {
    if (!kept.has(name) && Object.hasOwn(read, name) && read[name as keyof typeof read]!(value)) kept.set(name, value);
  }
  const fresh = new URL(origin);
  fresh.pathname = path;
  fresh.search = new URLSearchParams([...kept].sort(([a], [b]) => a.localeCompare(b))).toString();
  return fresh;
}

/** The most segments a page's route has (/account/orders/:id): a deeper address is not found. */
const deepestPage = Math.max(...Object.values(appRoutes).map((route) => route.split('/').length - 1));
/** Segments kept of an address deeper than every page: more than any page, so it is still not found. */
const keptSegments = deepestPage + 2;

/**
 * The address React Router is asked to draw (path and query). It matches the page's route against
 * every leading part of the path in turn (for the browser's route list), work that grows with the
 * square of the path's segments: an address of eight thousand of them held the server for seconds.
 * An address deeper than every page is not found whatever its tail, so only its first segments are
 * drawn, a data request's `.data` kept. Segments are counted as the router counts them: after the
 * URL's own resolving of `.` and `..`, and without the empty ones it skips.
 */
export function drawnAddress(requestUrl: string): string {
  if (!mayBeDeeperThanPages(requestUrl)) return requestUrl;
  // Joined, not resolved against a base: a path starting `//` would be read as another host.
  const url = new URL(`http://shop.invalid${requestUrl.startsWith('/') ? requestUrl : `/${requestUrl}`}`);
  const path = url.pathname;
  let segments = 0;
  for (let at = 0; at < path.length; at += 1) {
    if (path[at] !== '/' || at + 1 >= path.length || path[at + 1] === '/') continue;
    segments += 1;
    if (segments > keptSegments) return `${path.slice(0, at)}${path.endsWith('.data') ? '.data' : ''}${url.search}`;
  }
  return requestUrl;
}

/**
 * Whether the path has more separators than a page's segments, the URL's backslashes counted as it
 * reads them: nearly every address has fewer, and is drawn as it is without being parsed.
 */
function mayBeDeeperThanPages(requestUrl: string): boolean {
  let separators = 0;
  for (let at = 0; at < requestUrl.length; at += 1) {
    const character = requestUrl[at];
    if (character === '?' || character === '#') return false;
    if ((character === '/' || character === '\\') && ++separators > keptSegments) return true;
  }
  return false;
}

/** A client navigation's data or route manifest, not a page. */
export function isDataRequest(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname.endsWith('.data') || pathname === '/__manifest';
}
