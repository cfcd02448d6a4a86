import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cancelWaitingSchema, expectedDateSchema, shipmentBodySchema } from '../../../contracts/pre-order';
import { idParam } from '../../../contracts/product';
import { adminOnly, requireAdmin } from '../auth/request-user';
import type { PreOrderService } from './pre-orders';

const productParams = z.object({ productId: idParam('Product id') });

/** The season on Inventory (staff only): shipments, allocation, late dates, cancelling, opening sales. */
export function preOrderRoutes(preOrders: PreOrderService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.get('/api/admin/inventory/:productId/pre-orders', { onRequest: adminOnly, schema: { params: productParams } }, async (request) => preOrders.book(request.params.productId));
    app.post('/api/admin/inventory/:productId/shipments', { onRequest: adminOnly, schema: { params: productParams, body: shipmentBodySchema } }, async (request, reply) => {
      const admin = await requireAdmin(request);
      const result = await preOrders.recordShipment(request.params.productId, request.body, { userId: admin.id, requestId: request.id });
      return reply.code(201).send(result);
    });
    app.post('/api/admin/inventory/:productId/pre-orders/allocate', { onRequest: adminOnly, schema: { params: productParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return preOrders.allocateStock(request.params.productId, { userId: admin.id, requestId: request.id });
    });
    app.post('/api/admin/inventory/:productId/pre-orders/expected-date', { onRequest: adminOnly, schema: { params: productParams, body: expectedDateSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return preOrders.moveExpectedDate(request.params.productId, request.body, { userId: admin.id, requestId: request.id });
    });
    app.post('/api/admin/inventory/:productId/pre-orders/cancel-waiting', { onRequest: adminOnly, schema: { params: productParams, body: cancelWaitingSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return preOrders.cancelWaiting(request.params.productId, request.body.reason, { userId: admin.id, requestId: request.id });
    });
    app.post('/api/admin/inventory/:productId/open-sales', { onRequest: adminOnly, schema: { params: productParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return preOrders.openSales(request.params.productId, { userId: admin.id, requestId: request.id });
    });
  };
}
