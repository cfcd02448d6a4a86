import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { listActivePromos } from './service';

export function promoRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/promo-codes/active', async () => listActivePromos(db));
  };
}
