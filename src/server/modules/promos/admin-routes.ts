import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import type { CacheBus } from '../../lib/cache-bus';

/** The admin area's promo codes; staff only. */
export function promoAdminRoutes(_deps: { db: Db; bus: CacheBus }): FastifyPluginAsyncZod {
  return async () => {};
}
