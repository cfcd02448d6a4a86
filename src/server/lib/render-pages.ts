import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from 'fastify';
import type { AppLoadContext, ServerBuild } from 'react-router';
import '../../web/lib/load-context';
import type { StylesheetReader } from '../../web/lib/page-styles';
import { encodedFor, hasPersonalCookie, inlineScriptHashes, type PageCache, type RenderedPage } from './page-cache';
import { drawnAddress, isDataRequest, siteOrigin, visitorPageUrl } from './page-address';
import { innerCallHeaders } from './inner-calls';
import type { SharedCacheConfig } from '../config';
import { contentSecurityPolicy } from './security-headers';
import { cacheTags, isSharedPagePath, keepAndStale, personalCacheControl, sharedHeaders, sharedTimes, tagHeaders, tagsOf } from './shared-cache';

const immutable = 'public, max-age=31536000, immutable';
/** A shared render that takes longer is given up (every visitor waiting on it gets the error page). */
const sharedRenderTimeoutMs = 15_000;

export type PageHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A failed in-process API call, with the status the browser would have seen. */
export class PageApiError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`${status}: ${body}`);
  }
}

/** What one render learnt from the API calls its loaders made. */
interface RenderNotes {
  /** Cookies the API set on the way (a session renewed): passed on to the browser. */
  setCookies: string[];
  /** A call failed with 5xx: the page shows a fallback, so it is not kept for others. */
  incomplete: boolean;
  /** The shared-cache tags of the answers it read; the fewest seconds any of them may be kept, and then served stale. */
  tags: Set<string>;
  keepSeconds: number;
  staleSeconds: number;
  /** An answer read was not one to share (it depends on who asks): nor is the page. */
  personal: boolean;
}

function renderNotes(): RenderNotes {
  return { setCookies: [], incomplete: false, tags: new Set(), keepSeconds: Number.POSITIVE_INFINITY, staleSeconds: Number.POSITIVE_INFINITY, personal: false };
}

/**
 * What the page's loaders get (src/web/lib/load-context.ts): the shop's own API, called in process
 * with app.inject, so a loader reads exactly the JSON the browser would, with the page request's
 * cookie and address, through the same hooks (sessions, maintenance, rate limits), and no socket.
 * Loaders run side by side and may ask for the same thing (the root and a signed-in page both ask
 * who the user is): each path is asked once per page.
 */
function loadContextFor(
  app: FastifyInstance,
  request: FastifyRequest,
  page: { nonce: string | undefined; cookie: string | undefined; siteUrl: string; notes: RenderNotes; stylesheet: StylesheetReader },
): AppLoadContext {
  const answers = new Map<string, Promise<LightMyRequestResponse>>();
  const ask = (apiPath: string): Promise<LightMyRequestResponse> => {
    let answer = answers.get(apiPath);
    if (!answer) {
      answer = app
        .inject({
          method: 'GET',
          url: apiPath,
          remoteAddress: request.ip,
          headers: {
            accept: 'application/json',
            'x-request-id': request.id,
            ...innerCallHeaders(request),
            ...(page.cookie ? { cookie: page.cookie } : {}),
            ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
          },
        })
        .then(
          (response) => {
            const setCookie = response.headers['set-cookie'];
            if (page.cookie && setCookie) page.notes.setCookies.push(...[setCookie].flat());
            if (response.statusCode >= 500) page.notes.incomplete = true;
            const times = sharedTimes(response.headers['cache-control'] as string | undefined);
            if (times === undefined) page.notes.personal = true;
            else {
              page.notes.keepSeconds = Math.min(page.notes.keepSeconds, times.keep);
              page.notes.staleSeconds = Math.min(page.notes.staleSeconds, times.stale);
            }
            for (const tag of tagsOf(response.headers[tagHeaders.xkey])) page.notes.tags.add(tag);
            return response;
          },
          (error: unknown) => {
            page.notes.incomplete = true;
            throw error;
          },
        );
      answers.set(apiPath, answer);
    }
    return answer;
  };
  return {
    nonce: page.nonce,
    siteUrl: page.siteUrl,
    now: () => app.services.clock().getTime(),
    stylesheet: page.stylesheet,
    async api<T>(apiPath: string, options?: { on401?: 'null' }): Promise<T> {
      const response = await ask(apiPath);
      if (response.statusCode === 401 && options?.on401 === 'null') return null as T;
      if (response.statusCode >= 300) throw new PageApiError(response.statusCode, response.body);
      return response.json() as T;
    },
  };
}

function toFetchRequest(request: FastifyRequest, url: string, options: { reply?: FastifyReply; withoutCookies?: boolean; timeoutMs?: number }): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (options.withoutCookies && name === 'cookie') continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, String(value));
  }
  const controller = new AbortController();
  // The visitor went away: React Router stops the loaders and the render (not for a shared render).
  options.reply?.raw.on('close', () => {
    if (!options.reply!.raw.writableFinished) controller.abort();
  });
  const signal = options.timeoutMs ? AbortSignal.any([controller.signal, AbortSignal.timeout(options.timeoutMs)]) : controller.signal;
  // A shared render is the GET a HEAD stands for too, so a kept page answers both.
  return new Request(url, { method: options.reply ? request.method : 'GET', headers, signal });
}

/** Development: Vite's hot-reload socket listens on a port of its own. */
const viteSocket = ['ws://127.0.0.1:*', 'ws://localhost:*'];

/** The page policy: React Router's inline scripts run by this response's nonce, or by their hashes. */
function pageSecurityPolicy(scriptSources: string[], mode: 'production' | 'development'): string {
  return contentSecurityPolicy({ scriptSources, connectSources: mode === 'development' ? viteSocket : [] });
}

/**
 * A shared page's tags, the instant it may be kept until and the instant a stale copy may be
 * served until: as long as its answers may, nor past the next NZ midnight.
 */
function sharedPage(tags: string[], now: number, notes: RenderNotes, sharing: SharedCacheConfig, midnight: number): NonNullable<RenderedPage['shared']> {
  const keep = Math.min(notes.keepSeconds, sharing.sMaxAgeSeconds);
  const stale = Math.min(notes.staleSeconds, sharing.staleSeconds);
  return { tags, until: Math.min(now + keep * 1000, midnight), staleUntil: Math.min(now + (keep + stale) * 1000, midnight) };
}


export type ServerBuildSource = ServerBuild | (() => Promise<ServerBuild>);

export interface PageRendererOptions {
  mode: 'production' | 'development';
  /** PUBLIC_URL; without it, links in pages are made from the request's own origin. */
  publicUrl: string | undefined;
  /** Pages for visitors are kept here (none in development). */
  cache?: PageCache;
  /** Reads the build's stylesheets for writing into pages (none in development: Vite serves them). */
  stylesheet?: StylesheetReader;
  /** A tag every shared page carries: the build that drew it (lib/shared-cache.ts). */
  buildTag?: string;
}

/**
 * The build's stylesheets under dist/web/client, read once each. Only the build's own addresses
 * are asked for (root.tsx imports its stylesheet's); anything else reads as undefined.
 */
export function stylesheetsIn(clientRoot: string): StylesheetReader {
  const read = new Map<string, string | undefined>();
  return (href) => {
    if (!/^\/assets\/[\w.-]+\.css$/.test(href)) return undefined;
    if (!read.has(href)) {
      const file = path.join(clientRoot, href);
      const css = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      // Written into a <style> element: a stylesheet that could end it is linked instead.
      read.set(href, css?.toLowerCase().includes('</style') ? undefined : css);
    }
    return read.get(href);
  };
}


/**
 * Renders a page, or answers a client navigation's data request (`*.data`, `/__manifest`).
 * Someone's own page (a session or another personal cookie) is streamed as React renders it,
 * with a nonce for its inline scripts. A visitor's page is rendered without any cookie, kept in
 * the page cache, and sent whole and compressed, its inline scripts allowed by their hashes.
 */
export async function pageRenderer(app: FastifyInstance, build: ServerBuildSource, options: PageRendererOptions): Promise<PageHandler> {
  const { mode, publicUrl, cache } = options;
  const stylesheet = options.stylesheet ?? (() => undefined);
  // Loaded here, not at start-up: React reads NODE_ENV once, when it is first loaded (main.ts sets it).
  const { createRequestHandler } = await import('react-router');
  const handle = createRequestHandler(build, mode);

  const sharing = app.appConfig.sharedCache;
  const buildTag = options.buildTag;
  const renderWhole = async (request: FastifyRequest, url: URL): Promise<RenderedPage> => {
    const notes = renderNotes();
    // Before the render: its answers' s-maxage counted from when they were made, not from its end.
    const now = app.services.clock().getTime();
    const drawnAt = performance.now();
    const context = loadContextFor(app, request, { nonce: undefined, cookie: undefined, siteUrl: url.origin, notes, stylesheet });
    const response = await handle(toFetchRequest(request, url.href, { withoutCookies: true, timeoutMs: sharedRenderTimeoutMs }), context);
    const html = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value;
    const whole = response.status === 200 && response.headers.getSetCookie().length === 0 && Boolean(headers['content-type']?.startsWith('text/html')) && !notes.incomplete;
    const shared = whole && !notes.personal && isSharedPagePath(url.pathname) ? sharedPage(buildTag ? [...notes.tags, buildTag] : [...notes.tags], now, notes, sharing, app.services.catalog.nextChangeByClock([])) : undefined;
    return {
      status: response.status,
      headers,
      html,
      contentSecurityPolicy: pageSecurityPolicy(inlineScriptHashes(html.toString('utf8')), mode),
      encoded: {},
      storedAt: performance.now(),
      // Only whole pages that are the same for everyone: not a 404 (any address makes one), not a
      // redirect that sets a cookie, not a page drawn with a fallback because the API failed.
      cacheable: whole,
      setCookies: response.headers.getSetCookie(),
      // Kept no later than the first of its answers would be, nor past NZ midnight (every page
      // shows the day): by shared caches, and here (an offer that ends is not shown past its end).
      shared,
      ...(shared && { expiresAt: drawnAt + (shared.until - now) }),
    };
  };

  return async (request, reply) => {
    const origin = siteOrigin(request, publicUrl);
    if (!origin) return reply.code(400).type('text/plain; charset=utf-8').send('Bad Host header.');
    // A missing file under /assets (an old build's chunk) is not a page.
    if (request.url.startsWith('/assets/')) return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
    if (cache && !hasPersonalCookie(request.cookies) && !isDataRequest(request.url)) {
      const url = visitorPageUrl(origin, drawnAddress(request.url));
      let rendered = false;
      const page = await cache.get(url.href, () => {
        rendered = true;
        return renderWhole(request, url);
      });
      // A page not kept is this visitor's own render (others waiting for it render their own), so
      // its cookies are theirs: a visitor without personal cookies is drawn the same with or without the rest.
      if (page.setCookies.length) reply.header('set-cookie', page.setCookies);
      const { body, encoding } = await encodedFor(page, request.headers['accept-encoding']);
      reply.code(page.status).headers(page.headers).header('content-security-policy', page.contentSecurityPolicy).header('vary', 'accept-encoding');
      reply.header('x-page-cache', rendered ? 'miss' : 'hit');
      if (encoding) reply.header('content-encoding', encoding);
      // The same for every visitor: a shared cache keeps it under the tags of what it shows.
      if (page.shared && !page.setCookies.length) {
        const { keep, stale } = keepAndStale(sharing, page.shared.until, page.shared.staleUntil, app.services.clock().getTime());
        reply.headers(sharedHeaders(sharing, page.shared.tags, keep, stale));
      }
      else reply.header('cache-control', personalCacheControl);
      return reply.header('content-length', body.length).send(body);
    }
    return streamPage(request, reply, origin);
  };

  async function streamPage(request: FastifyRequest, reply: FastifyReply, origin: string) {
    const nonce = randomBytes(16).toString('base64');
    const notes = renderNotes();
    // Someone's own page is sent as it is drawn, uncompressed: it links the stylesheet, which
    // their browser keeps, rather than carrying it each time (decision 0014).
    const context = loadContextFor(app, request, { nonce, cookie: request.headers.cookie, siteUrl: origin, notes, stylesheet: () => undefined });
    const response = await handle(toFetchRequest(request, `${origin}${drawnAddress(request.url)}`, { reply }), context);
    reply.code(response.status).header('content-security-policy', pageSecurityPolicy([`'nonce-${nonce}'`], mode));
    for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
    // The page's own cookies, and those the API set for it (a session renewed while drawing it).
    const cookies = [...notes.setCookies, ...response.headers.getSetCookie()];
    if (cookies.length) reply.header('set-cookie', cookies);
    // Someone's own page (or a navigation's data): never kept by a shared cache on the way.
    reply.header('cache-control', personalCacheControl);
    return reply.send(response.body ? Readable.fromWeb(response.body as NodeReadableStream) : null);
  }
}

/**
 * Production: dist/web/client as static files (hashed assets cached for a year, the rest for an
 * hour) and dist/web/server/index.js rendering every page. Before a build, pages answer 503.
 */
export async function registerPages(app: FastifyInstance, webRoot: string | undefined, publicUrl: string | undefined, cache?: PageCache, builtBy?: (tag: string) => void): Promise<PageHandler> {
  const serverEntry = webRoot ? path.join(webRoot, 'server', 'index.js') : undefined;
  if (!webRoot || !serverEntry || !fs.existsSync(serverEntry)) {
    return async (_request, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The web app has not been built yet: run npm run build (npm start does it for you).');
  }
  const clientRoot = path.join(webRoot, 'client');
  await app.register(fastifyStatic, {
    root: clientRoot,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      res.header('cache-control', path.relative(clientRoot, filePath).startsWith(`assets${path.sep}`) ? immutable : 'public, max-age=3600');
    },
  });
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  // The build's stamp (scripts/build.ts): pages of another build link scripts this one does not have.
  const stampFile = path.join(webRoot, 'server', '.build-hash');
  const buildTag = fs.existsSync(stampFile) ? cacheTags.build(fs.readFileSync(stampFile, 'utf8').trim()) : undefined;
  if (buildTag) builtBy?.(buildTag);
  return pageRenderer(app, build, { mode: 'production', publicUrl, cache, stylesheet: stylesheetsIn(clientRoot), buildTag });
}
