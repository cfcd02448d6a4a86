import type { FastifyInstance, FastifyReply } from 'fastify';
import { appRoutes, fixedContentPaths } from '../../contracts/routes';
import type { SharedCacheConfig } from '../config';
import { hasPersonalCookie } from './page-cache';

/**
 * What a shared HTTP cache in front of the shop (Varnish, a CDN) may keep, and under which tags
 * (docs/shared-cache.md). A visitor's page and the public JSON it is drawn from are the same for
 * everyone: they say `public, s-maxage` and name what they show, so a change purges exactly the
 * answers that showed it. Everything else is `private, no-store` and names nothing.
 */

/** The tags an answer can carry. A product's tag is its id. */
export const cacheTags = {
  catalog: 'catalog',
  settings: 'settings',
  testimonials: 'testimonials',
  banners: 'banners',
  product: (id: number) => String(id),
  content: (slug: string) => `content:${slug}`,
  /** Every page drawn by one build of the web app: its scripts' names are that build's. */
  build: (stamp: string) => `build:${stamp.slice(0, 12)}`,
} as const;

/** Varnish's xkey reads this one; CDNs read their own names for the same list. */
export const tagHeaders = { xkey: 'xkey', cloudflare: 'cache-tag', fastly: 'surrogate-key' } as const;

export const personalCacheControl = 'private, no-store';

export interface ShareOptions {
  tags: Iterable<string>;
  /** When what the answer shows changes by the clock alone (an opening, NZ midnight), by the shop's clock: it is kept no later. */
  until?: number | null;
  /** The same, as seconds from now (what the database says of an offer's start or end). */
  withinSeconds?: number | null;
}

declare module 'fastify' {
  interface FastifyReply {
    /** Marks the answer as the same for everyone: shared caches keep it under these tags. */
    share(options: ShareOptions): FastifyReply;
  }
}

/** Tag lists written out: the catalogue's is the same array until it changes, and short ones (a product's) recur. */
const writtenLists = new WeakMap<readonly string[], { spaced: string; commas: string }>();
const writtenShort = new Map<string, { spaced: string; commas: string }>();
const shortListsKept = 10_000;

function writtenTags(tags: Iterable<string>): { spaced: string; commas: string } {
  const list = Array.isArray(tags) ? (tags as readonly string[]) : undefined;
  const known = list && (list.length <= 3 ? writtenShort.get(list.join('\n')) : writtenLists.get(list));
  if (known) return known;
  const sorted = [...new Set(tags)].sort();
  const made = { spaced: sorted.join(' '), commas: sorted.join(',') };
  if (list && list.length <= 3) {
    if (writtenShort.size >= shortListsKept) writtenShort.clear();
    writtenShort.set(list.join('\n'), made);
  } else if (list) writtenLists.set(list, made);
  return made;
}

const cacheControls = new Map<string, string>();

/**
 * The header values of a shareable answer, from its tags, the seconds it may be kept, and the
 * seconds after that a stale copy may still be served while a fresh one is fetched: no more than
 * CACHE_STALE_SECONDS, and none past an instant the clock changes the answer (an opening, an
 * offer's start or end).
 */
export function sharedHeaders(
  config: Pick<SharedCacheConfig, 'sMaxAgeSeconds' | 'staleSeconds'>,
  tags: Iterable<string>,
  keepSeconds: number,
  staleSeconds: number = config.staleSeconds,
): Record<string, string> {
  const { spaced, commas } = writtenTags(tags);
  const seconds = Math.max(0, Math.min(config.sMaxAgeSeconds, Math.floor(keepSeconds)));
  const stale = Math.max(0, Math.min(config.staleSeconds, Math.floor(staleSeconds)));
  const key = `${seconds}/${stale}`;
  let cacheControl = cacheControls.get(key);
  if (!cacheControl) {
    cacheControl = `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${stale}`;
    if (cacheControls.size > 1000) cacheControls.clear();
    cacheControls.set(key, cacheControl);
  }
  return {
    'cache-control': cacheControl,
    // xkey and Fastly split on spaces, Cloudflare on commas.
    [tagHeaders.xkey]: spaced,
    [tagHeaders.fastly]: spaced,
    [tagHeaders.cloudflare]: commas,
  };
}

/**
 * How long an answer may be kept, and then served stale, when what it shows may be kept until
 * `keepUntil` and a stale copy served until `staleUntil` (by the shop's clock; null: only the
 * settings limit it). An answer the clock changes at an instant passes it as both: its s-maxage
 * runs to it at most, and its stale time only over what is left.
 */
export function keepAndStale(
  config: Pick<SharedCacheConfig, 'sMaxAgeSeconds' | 'staleSeconds'>,
  keepUntil: number | null | undefined,
  staleUntil: number | null | undefined,
  now: number,
): { keep: number; stale: number } {
  const secondsTo = (instant: number | null | undefined) => (instant === null || instant === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor((instant - now) / 1000)));
  const keep = Math.min(config.sMaxAgeSeconds, secondsTo(keepUntil));
  return { keep, stale: Math.max(0, Math.min(config.staleSeconds, secondsTo(staleUntil) - keep)) };
}

/** The s-maxage and stale-while-revalidate a Cache-Control value gives, or undefined when it is not a shareable one. */
export function sharedTimes(cacheControl: string | undefined): { keep: number; stale: number } | undefined {
  if (!cacheControl?.startsWith('public')) return undefined;
  const keep = /\bs-maxage=(\d+)/.exec(cacheControl);
  if (!keep) return undefined;
  const stale = /\bstale-while-revalidate=(\d+)/.exec(cacheControl);
  return { keep: Number(keep[1]), stale: stale ? Number(stale[1]) : 0 };
}

/** The tags an answer carries, from its xkey header. */
export function tagsOf(header: string | string[] | number | undefined): string[] {
  if (header === undefined || typeof header === 'number') return [];
  return [header].flat().flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
}

const contentPaths = new Set(Object.values(fixedContentPaths));
const productPath = new RegExp(`^${appRoutes.product.replace(':id', '\\d{1,12}')}$`);
const contentPath = new RegExp(`^${appRoutes.content.replace(':slug', '[a-z0-9-]{1,80}')}$`);

/** The storefront pages a visitor's copy of may be shared: home, the shop, a product, a content page. */
export function isSharedPagePath(pathname: string): boolean {
  return pathname === appRoutes.home || pathname === appRoutes.shop || contentPaths.has(pathname) || productPath.test(pathname) || contentPath.test(pathname);
}

function removeTags(reply: FastifyReply): void {
  for (const name of Object.values(tagHeaders)) reply.removeHeader(name);
}

/**
 * `reply.share()` for the public routes, and the rule every answer passes on its way out: one
 * that depends on who asks (a session or another personal cookie, a cookie set, a write, an
 * error) is `private, no-store` without tags, even if its route shared it; an API answer nobody
 * shared is too. Pictures and the build's files keep the public caching they set.
 */
export function registerSharedCacheRules(app: FastifyInstance, config: SharedCacheConfig, clock: () => Date): void {
  app.decorateReply('share', function share(this: FastifyReply, options: ShareOptions) {
    const now = clock().getTime();
    let until = options.until ?? null;
    if (options.withinSeconds !== null && options.withinSeconds !== undefined) until = Math.min(until ?? Number.POSITIVE_INFINITY, now + Math.max(0, options.withinSeconds) * 1000);
    const { keep, stale } = keepAndStale(config, until, until, now);
    return this.headers(sharedHeaders(config, options.tags, keep, stale));
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.hasHeader(tagHeaders.xkey)) {
      const readOnly = request.method === 'GET' || request.method === 'HEAD';
      const whole = reply.statusCode === 200 || reply.statusCode === 304;
      if (!readOnly || !whole || hasPersonalCookie(request.cookies) || reply.hasHeader('set-cookie')) {
        removeTags(reply);
        reply.header('cache-control', personalCacheControl);
      }
    } else if (request.url.startsWith('/api/') && !String(reply.getHeader('cache-control') ?? '').startsWith('public')) {
      reply.header('cache-control', personalCacheControl);
    }
    done(null, payload);
  });
}
