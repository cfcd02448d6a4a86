import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { browserStateCookies, sessionCookieName } from '../../contracts/cookies';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A page as it was sent to a visitor, kept to be sent again. */
export interface CachedPage {
  status: number;
  headers: Record<string, string>;
  html: Buffer;
  /** The Content-Security-Policy that lets exactly this page's inline scripts run (by their hashes). */
  contentSecurityPolicy: string;
  /** Made on first need and kept with the page. */
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
  storedAt: number;
  /**
   * What a shared cache may keep it under (lib/shared-cache.ts): the tags of the answers it was
   * drawn from, and the instant (shop clock) the first of them changes by the clock alone. Absent:
   * not for sharing.
   */
  shared?: { tags: string[]; until: number; staleUntil: number };
  /** When it may no longer be served from here (performance.now()), if sooner than the cache's own limit. */
  expiresAt?: number;
}

export interface RenderedPage extends CachedPage {
  cacheable: boolean;
  /** The render's own cookies (a redirect to /maintenance sets one): only a page not kept has any. */
  setCookies: string[];
}

/**
 * The cookies a page may depend on: with any of them the request is someone's own (a session, a
 * hidden promo, the maintenance bypass) and is rendered for them, never cached.
 */
export const personalCookies: readonly string[] = [sessionCookieName, ...Object.values(browserStateCookies)];

/** `cookies` as @fastify/cookie parsed them for the request. */
export function hasPersonalCookie(cookies: Record<string, string | undefined>): boolean {
  return personalCookies.some((name) => cookies[name] !== undefined);
}

const inlineScript = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** 'sha256-...' of every inline script that runs (not src=, not JSON data blocks), as CSP wants them. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', body = ''] of html.matchAll(inlineScript)) {
    if (/\bsrc\s*=/i.test(attributes) || /\btype\s*=\s*"application\/(ld\+)?json"/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** The encodings an Accept-Encoding header allows (a q of 0 refuses one). */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

/** The body in the encoding the browser accepts best (brotli, then gzip), or as it is. */
export async function encodedFor(page: CachedPage, acceptEncoding: string | undefined): Promise<{ body: Buffer; encoding?: 'br' | 'gzip' }> {
  if (page.html.length < 1024) return { body: page.html };
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.has('br')) {
    page.encoded.br ??= brotli(page.html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
    return { body: await page.encoded.br, encoding: 'br' };
  }
  if (accepted.has('gzip')) {
    page.encoded.gzip ??= gzip(page.html, { level: 6 });
    return { body: await page.encoded.gzip, encoding: 'gzip' };
  }
  return { body: page.html };
}

/** What a kept page may take: its HTML and, once asked for, a brotli and a gzip copy (each well under half). */
function footprint(page: CachedPage): number {
  return Math.ceil(page.html.length * 1.5);
}

/**
 * Rendered pages for visitors, kept in memory: the oldest go first past `maxBytes`, none is served
 * after `maxAgeMs` (offers start and end with the clock, not with an event), and `clear()`, called
 * by the cache bus on every change to products, settings, content and offers, drops them all. A
 * page rendered while a change happened is not kept: it may show what was there before.
 */
export class PageCache {
  /** Pages at a plain address; pages whose address has parameters (a category, a sort) are kept apart. */
  private readonly pages = new Map<string, CachedPage>();
  private readonly withParameters = new Map<string, CachedPage>();
  private readonly rendering = new Map<string, Promise<RenderedPage>>();
  private bytes = 0;
  private generation = 0;
  /** Pages served from the cache (or from another visitor's render of the same page), and pages rendered. */
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxBytes = 16 * 1024 * 1024,
    private readonly maxAgeMs = 30_000,
    /**
     * Pages with parameters kept at most: anyone can make up new ones (a category that does not
     * exist), so they have a small share of their own and never push out the plain pages.
     */
    private readonly maxPagesWithParameters = 64,
  ) {}

  get size(): number {
    return this.pages.size + this.withParameters.size;
  }

  clear(): void {
    this.pages.clear();
    this.withParameters.clear();
    this.rendering.clear();
    this.bytes = 0;
    this.generation++;
  }

  /**
   * The cached page, or the one `render` makes. Visitors asking at once for the same page share
   * one render; a render that may not be kept (`cacheable` false: it set a cookie, or failed) is
   * sent only to whoever asked for it, and the others render their own.
   */
  async get(key: string, render: () => Promise<RenderedPage>): Promise<RenderedPage> {
    const part = this.partFor(key);
    const cached = part.get(key);
    const now = performance.now();
    if (cached && now - cached.storedAt < this.maxAgeMs && now < (cached.expiresAt ?? Number.POSITIVE_INFINITY)) {
      // Most recently used last: eviction takes from the front.
      part.delete(key);
      part.set(key, cached);
      this.hits += 1;
      return { ...cached, cacheable: true, setCookies: [] };
    }
    if (cached) this.remove(key);
    const inFlight = this.rendering.get(key);
    if (inFlight) {
      const shared = await inFlight.catch(() => undefined);
      if (shared?.cacheable) {
        this.hits += 1;
        return shared;
      }
      this.misses += 1;
      return render();
    }
    this.misses += 1;
    const generation = this.generation;
    const made = render();
    this.rendering.set(key, made);
    try {
      const page = await made;
      if (page.cacheable && generation === this.generation) this.store(key, page);
      // Drawn while something changed, it may show what was there before: not for a shared cache either.
      if (generation !== this.generation) page.shared = undefined;
      return page;
    } finally {
      if (this.rendering.get(key) === made) this.rendering.delete(key);
    }
  }

  private partFor(key: string): Map<string, CachedPage> {
    return key.includes('?') ? this.withParameters : this.pages;
  }

  private store(key: string, { cacheable: _, setCookies: __, ...page }: RenderedPage): void {
    if (footprint(page) > this.maxBytes / 4) return;
    this.remove(key);
    const part = this.partFor(key);
    part.set(key, page);
    this.bytes += footprint(page);
    for (const [oldest] of this.withParameters) {
      if (this.withParameters.size <= this.maxPagesWithParameters) break;
      this.remove(oldest);
    }
    // Over the byte limit: the least recently used pages with parameters go first.
    for (const map of [this.withParameters, this.pages]) {
      for (const [oldest] of map) {
        if (this.bytes <= this.maxBytes) return;
        this.remove(oldest);
      }
    }
  }

  private remove(key: string): void {
    const part = this.partFor(key);
    const page = part.get(key);
    if (!page) return;
    part.delete(key);
    this.bytes -= footprint(page);
  }
}
