import type { FastifyRequest } from 'fastify';

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

/** The query parameters a storefront page reads; others (utm_source, fbclid...) do not change it. */
const pageParams = ['category', 'sort', 'signup', 'redirect', 'order', 'bypass'];

/** A visitor's page address as it is drawn and kept: the path and the parameters pages read, sorted. */
export function visitorPageUrl(origin: string, requestUrl: string): URL {
  const url = new URL(`${origin}${requestUrl.startsWith('/') ? requestUrl : `/${requestUrl}`}`);
  const kept = [...url.searchParams].filter(([name]) => pageParams.includes(name)).sort(([a], [b]) => a.localeCompare(b));
  url.search = new URLSearchParams(kept).toString();
  url.hash = '';
  return url;
}

/** A client navigation's data or route manifest, not a page. */
export function isDataRequest(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname.endsWith('.data') || pathname === '/__manifest';
}
