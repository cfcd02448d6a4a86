import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import type { CacheBus } from '../../lib/cache-bus';

/** The admin area's testimonials, content pages and banners; staff only. */
export function contentAdminRoutes(_deps: { db: Db; bus: CacheBus }): FastifyPluginAsyncZod {
  return async () => {};
}
