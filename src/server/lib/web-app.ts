import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppRoute } from '../../contracts/routes';

const immutable = 'public, max-age=31536000, immutable';

/** A page's own index.html (a product's title, description and tags), or undefined for the plain one. */
export type PageHtml = (pathname: string, indexHtml: string) => Promise<{ html: string; status?: number } | undefined>;

/**
 * Serves the built web app: hashed assets cached for a year, other files for an hour, and
 * index.html never cached, for every app route (404 status for paths the router does not know).
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string | undefined, pageHtml?: PageHtml): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<unknown>> {
  const indexPath = webRoot ? path.join(webRoot, 'index.html') : undefined;
  if (!webRoot || !indexPath || !fs.existsSync(indexPath)) {
    return async (_request, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The web app has not been built yet: run npm run build (npm start does it for you).');
  }
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      const relative = path.relative(webRoot, filePath);
      res.header('cache-control', relative.startsWith(`assets${path.sep}`) ? immutable : relative === 'index.html' ? 'no-cache' : 'public, max-age=3600');
    },
  });
  const indexHtml = fs.readFileSync(indexPath, 'utf8');
  return async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const known = isAppRoute(pathname);
    const page = known ? await pageHtml?.(pathname, indexHtml) : undefined;
    return reply
      .code(page?.status ?? (known ? 200 : 404))
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(page?.html ?? indexHtml);
  };
}
