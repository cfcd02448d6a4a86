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
function loadContextFor(app: FastifyInstance, request: FastifyRequest, nonce: string, publicUrl: string | undefined): AppLoadContext {
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
          ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
          ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
        },
      });
      if (response.statusCode === 401 && options?.on401 === 'null') return null as T;
      if (response.statusCode >= 300) throw new PageApiError(response.statusCode, response.body);
      return response.json() as T;
    },
  };
}

function toFetchRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, String(value));
  }
  const controller = new AbortController();
  // The visitor went away: React Router stops the loaders and the render.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers, signal: controller.signal });
}

/** The policy of a rendered page: React Router's inline scripts run by this response's nonce. */
function pageSecurityPolicy(nonce: string, mode: 'production' | 'development'): string {
  const policy = securityHeaders['content-security-policy']!.replace("script-src 'self'", `script-src 'self' 'nonce-${nonce}'`);
  // Development: Vite's hot-reload socket listens on a port of its own.
  return mode === 'development' ? policy.replace("connect-src 'self'", "connect-src 'self' ws://127.0.0.1:* ws://localhost:*") : policy;
}

export type ServerBuildSource = ServerBuild | (() => Promise<ServerBuild>);

/** Renders a page, or answers a client navigation's data request (`*.data`, `/__manifest`). */
export async function pageRenderer(app: FastifyInstance, build: ServerBuildSource, mode: 'production' | 'development', publicUrl: string | undefined): Promise<PageHandler> {
  // Loaded here, not at start-up: React reads NODE_ENV once, when it is first loaded (main.ts sets it).
  const { createRequestHandler } = await import('react-router');
  const handle = createRequestHandler(build, mode);
  return async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    const context = loadContextFor(app, request, nonce, publicUrl);
    const response = await handle(toFetchRequest(request, reply), context);
    reply.code(response.status).header('content-security-policy', pageSecurityPolicy(nonce, mode));
    for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    return reply.send(response.body ? Readable.fromWeb(response.body as NodeReadableStream) : null);
  };
}

/**
 * Production: dist/web/client as static files (hashed assets cached for a year, the rest for an
 * hour) and dist/web/server/index.js rendering every page. Before a build, pages answer 503.
 */
export async function registerPages(app: FastifyInstance, webRoot: string | undefined, publicUrl: string | undefined): Promise<PageHandler> {
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
  return pageRenderer(app, build, 'production', publicUrl);
}
