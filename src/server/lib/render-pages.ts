import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppLoadContext, ServerBuild } from 'react-router';
import '../../web/lib/load-context';
import { encodedFor, hasPersonalCookie, inlineScriptHashes, type PageCache, type RenderedPage } from './page-cache';
import { securityHeaders } from './security-headers';

const immutable = 'public, max-age=31536000, immutable';

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

/**
 * What the page's loaders get (src/web/lib/load-context.ts): the shop's own API, called in process
 * with app.inject, so a loader reads exactly the JSON the browser would, with the page request's
 * cookie and address, through the same hooks (sessions, maintenance, rate limits), and no socket.
 */
function loadContextFor(app: FastifyInstance, nonce: string | undefined, request: FastifyRequest, cookie: string | undefined, publicUrl: string | undefined): AppLoadContext {
  return {
    nonce,
    publicUrl: publicUrl ?? `${request.protocol}://${request.host}`,
    async api<T>(apiPath: string, options?: { on401?: 'null' }): Promise<T> {
      const response = await app.inject({
        method: 'GET',
        url: apiPath,
        remoteAddress: request.ip,
        headers: {
          accept: 'application/json',
          'x-request-id': request.id,
          ...(cookie ? { cookie } : {}),
          ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
        },
      });
      if (response.statusCode === 401 && options?.on401 === 'null') return null as T;
      if (response.statusCode >= 300) throw new PageApiError(response.statusCode, response.body);
      return response.json() as T;
    },
  };
}

function toFetchRequest(request: FastifyRequest, reply: FastifyReply | undefined, options: { withoutCookies?: boolean } = {}): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (options.withoutCookies && name === 'cookie') continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, String(value));
  }
  const controller = new AbortController();
  // The visitor went away: React Router stops the loaders and the render (not for a shared render).
  reply?.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  // A HEAD is rendered as the GET it stands for, so a cached page answers both.
  const method = reply ? request.method : 'GET';
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method, headers, signal: controller.signal });
}

/** The page policy: React Router's inline scripts run by this response's nonce, or by their hashes. */
function pageSecurityPolicy(scriptSources: string[], mode: 'production' | 'development'): string {
  const policy = securityHeaders['content-security-policy']!.replace("script-src 'self'", ['script-src', "'self'", ...scriptSources].join(' '));
  // Development: Vite's hot-reload socket listens on a port of its own.
  return mode === 'development' ? policy.replace("connect-src 'self'", "connect-src 'self' ws://127.0.0.1:* ws://localhost:*") : policy;
}

export type ServerBuildSource = ServerBuild | (() => Promise<ServerBuild>);

export interface PageRendererOptions {
  mode: 'production' | 'development';
  /** PUBLIC_URL; without it, links in pages are made from the request's own origin. */
  publicUrl: string | undefined;
  /** Pages for visitors are kept here (none in development). */
  cache?: PageCache;
}

/** A client navigation's data or route manifest, not a page. */
function isDataRequest(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname.endsWith('.data') || pathname === '/__manifest';
}

/**
 * Renders a page, or answers a client navigation's data request (`*.data`, `/__manifest`).
 * Someone's own page (a session or another personal cookie) is streamed as React renders it,
 * with a nonce for its inline scripts. A visitor's page is rendered without any cookie, kept in
 * the page cache, and sent whole and compressed, its inline scripts allowed by their hashes.
 */
export async function pageRenderer(app: FastifyInstance, build: ServerBuildSource, options: PageRendererOptions): Promise<PageHandler> {
  const { mode, publicUrl, cache } = options;
  // Loaded here, not at start-up: React reads NODE_ENV once, when it is first loaded (main.ts sets it).
  const { createRequestHandler } = await import('react-router');
  const handle = createRequestHandler(build, mode);

  const renderWhole = async (request: FastifyRequest): Promise<RenderedPage> => {
    const response = await handle(toFetchRequest(request, undefined, { withoutCookies: true }), loadContextFor(app, undefined, request, undefined, publicUrl));
    const html = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value;
    return {
      status: response.status,
      headers,
      html,
      contentSecurityPolicy: pageSecurityPolicy(inlineScriptHashes(html.toString('utf8')), mode),
      encoded: {},
      storedAt: performance.now(),
      cacheable: (response.status === 200 || response.status === 404) && response.headers.getSetCookie().length === 0 && Boolean(headers['content-type']?.startsWith('text/html')),
    };
  };

  return async (request, reply) => {
    const forVisitor = cache && !hasPersonalCookie(request.headers.cookie) && !isDataRequest(request.url);
    if (forVisitor) {
      const key = `${publicUrl ? '' : `${request.protocol}://${request.host}`}${request.url}`;
      let rendered = false;
      const page = await cache.get(key, () => {
        rendered = true;
        return renderWhole(request);
      });
      reply.header('x-page-cache', rendered ? 'miss' : 'hit');
      if (!page.cacheable && page.status >= 300 && page.status < 400) {
        // A redirect that sets a cookie (maintenance): rendered again for this visitor, with it.
        return streamPage(request, reply);
      }
      const { body, encoding } = await encodedFor(page, request.headers['accept-encoding']);
      reply.code(page.status).headers(page.headers).header('content-security-policy', page.contentSecurityPolicy).header('vary', 'accept-encoding');
      if (encoding) reply.header('content-encoding', encoding);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
      return reply.header('content-length', body.length).send(body);
    }
    return streamPage(request, reply);
  };

  async function streamPage(request: FastifyRequest, reply: FastifyReply) {
    const nonce = randomBytes(16).toString('base64');
    const response = await handle(toFetchRequest(request, reply), loadContextFor(app, nonce, request, request.headers.cookie, publicUrl));
    reply.code(response.status).header('content-security-policy', pageSecurityPolicy([`'nonce-${nonce}'`], mode));
    for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    // Someone's own page: never kept by a shared cache on the way.
    if (request.headers.cookie) reply.header('cache-control', 'private, no-cache');
    return reply.send(response.body ? Readable.fromWeb(response.body as NodeReadableStream) : null);
  }
}

/**
 * Production: dist/web/client as static files (hashed assets cached for a year, the rest for an
 * hour) and dist/web/server/index.js rendering every page. Before a build, pages answer 503.
 */
export async function registerPages(app: FastifyInstance, webRoot: string | undefined, publicUrl: string | undefined, cache?: PageCache): Promise<PageHandler> {
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
  return pageRenderer(app, build, { mode: 'production', publicUrl, cache });
}
