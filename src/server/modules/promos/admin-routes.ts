import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../contracts/product';
import { promoCodeQuerySchema, promoCodeSchema, promoCodeUpdateSchema } from '../../../contracts/promo-admin';
import type { Db } from '../../db/client';
import type { CacheBus } from '../../lib/cache-bus';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { PromoAdminService } from './admin-service';

const promoParams = z.object({ id: idParam('Promo code id') });

/**
 * The admin area's promo codes; staff only. The storefront reads promos straight from the
 * database (no cache to invalidate), so a change shows in the banner and the checkout at once.
 */
export function promoAdminRoutes(deps: { db: Db; bus: CacheBus }): FastifyPluginAsyncZod {
  const promos = new PromoAdminService(deps.db);
  // The promo banner is in every cached page (lib/page-cache.ts).
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.get('/api/admin/promo-codes', { onRequest: adminOnly, schema: { querystring: promoCodeQuerySchema } }, async (request) => promos.list(request.query));
    app.get('/api/admin/promo-codes/:id', { onRequest: adminOnly, schema: { params: promoParams } }, async (request) => promos.detail(request.params.id));
    app.post('/api/admin/promo-codes', { onRequest: adminOnly, schema: { body: promoCodeSchema } }, async (request, reply) => {
      const admin = await requireAdmin(request);
      const created = await promos.create(request.body, { userId: admin.id, requestId: request.id });
      await deps.bus.publish('promos');
      return reply.code(201).send(created);
    });
    app.put('/api/admin/promo-codes/:id', { onRequest: adminOnly, schema: { params: promoParams, body: promoCodeUpdateSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      const updated = await promos.update(request.params.id, request.body, { userId: admin.id, requestId: request.id });
      await deps.bus.publish('promos');
      return updated;
    });
    app.delete('/api/admin/promo-codes/:id', { onRequest: adminOnly, schema: { params: promoParams } }, async (request) => {
      const admin = await requireAdmin(request);
      await promos.remove(request.params.id, { userId: admin.id, requestId: request.id });
      await deps.bus.publish('promos');
      return { message: 'Promo code deleted' };
    });
  };
}
