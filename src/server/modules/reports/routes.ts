import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import type { CacheBus } from '../../lib/cache-bus';

/** The admin area's reports and dashboard figures; staff only. */
export function reportRoutes(_deps: { db: Db; bus: CacheBus }): FastifyPluginAsyncZod {
  return async () => {};
}
