import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { cacheTags } from '../../lib/shared-cache';
import { listActivePromos, secondsToNextPromoChange } from './service';

export function promoRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    /** The offers in the banner: the same for everyone, kept by shared caches until one starts or ends. */
    app.get('/api/promo-codes/active', async (_request, reply) => {
      const [active, withinSeconds] = await Promise.all([listActivePromos(db), secondsToNextPromoChange(db)]);
      reply.share({ tags: [cacheTags.banners], withinSeconds });
      return active;
    });
  };
}
