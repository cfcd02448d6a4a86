import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newBatchSchema, writeOffSchema } from '../../../contracts/batches';
import { stockAdjustmentSchema } from '../../../contracts/inventory';
import { idParam } from '../../../contracts/product';
import { adminOnly, requireAdmin } from '../auth/request-user';
import type { BatchService } from './batch-service';
import type { InventoryService } from './service';

const productParams = z.object({ productId: idParam('Product id') });
const batchParams = z.object({ productId: idParam('Product id'), batchId: idParam('Batch id') });

/** The admin area's inventory: stock, pre-order counts, movement history and adjustments; staff only. */
export function inventoryRoutes(inventory: InventoryService, batches: BatchService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.get('/api/admin/inventory', { onRequest: adminOnly }, async () => inventory.list());
    app.get('/api/admin/inventory/:productId/movements', { onRequest: adminOnly, schema: { params: productParams } }, async (request) =>
      inventory.movements(request.params.productId),
    );
    app.post('/api/admin/inventory/:productId/adjustments', { onRequest: adminOnly, schema: { params: productParams, body: stockAdjustmentSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return inventory.adjust(request.params.productId, request.body, { userId: admin.id, requestId: request.id });
    });
    app.get('/api/admin/inventory/batches/expiring', { onRequest: adminOnly }, async () => batches.expiring());
    app.get('/api/admin/inventory/:productId/batches', { onRequest: adminOnly, schema: { params: productParams } }, async (request) => batches.list(request.params.productId));
    app.post('/api/admin/inventory/:productId/batches', { onRequest: adminOnly, schema: { params: productParams, body: newBatchSchema } }, async (request, reply) => {
      const admin = await requireAdmin(request);
      return reply.code(201).send(await batches.create(request.params.productId, request.body, { userId: admin.id, requestId: request.id }));
    });
    app.post(
      '/api/admin/inventory/:productId/batches/:batchId/write-offs',
      { onRequest: adminOnly, schema: { params: batchParams, body: writeOffSchema } },
      async (request) => {
        const admin = await requireAdmin(request);
        return batches.writeOff(request.params.productId, request.params.batchId, request.body, { userId: admin.id, requestId: request.id });
      },
    );
  };
}
