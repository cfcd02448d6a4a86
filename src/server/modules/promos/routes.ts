import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { cacheTags } from '../../lib/shared-cache';
import { listActivePromos } from './service';

export function promoRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    /** The offers in the banner: the same for everyone, kept by shared caches until one starts or ends. */
    app.get('/api/promo-codes/active', async (_request, reply) => {
      const { active, secondsToNextChange } = await listActivePromos(db);
      reply.share({ tags: [cacheTags.banners], withinSeconds: secondsToNextChange });
      return active;
    });
  };
}
