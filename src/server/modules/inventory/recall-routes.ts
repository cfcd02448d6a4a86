import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../contracts/product';
import { recallActionLabels, recallSchema } from '../../../contracts/recalls';
import { asCsvDownload, csvDocument } from '../../lib/csv';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { orderParams } from '../orders/routes';
import type { RecallService } from './recalls';

const batchParams = z.object({ id: idParam('Batch id') });

/** Batch recalls and the holds they leave on orders; staff only (decision 0048). */
export function recallRoutes(recalls: RecallService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.get('/api/admin/recalls', { onRequest: adminOnly }, async () => ({ recalls: await recalls.list() }));
    app.post('/api/admin/batches/:id/recall', { onRequest: adminOnly, schema: { params: batchParams, body: recallSchema } }, async (request, reply) => {
      const admin = await requireAdmin(request);
      return reply.code(201).send(await recalls.recall(request.params.id, request.body, { userId: admin.id, requestId: request.id }));
    });
    app.get('/api/admin/batches/:id/recall', { onRequest: adminOnly, schema: { params: batchParams } }, async (request) => recalls.view(request.params.id));
    app.get('/api/admin/batches/:id/recall.csv', { onRequest: adminOnly, schema: { params: batchParams } }, async (request, reply) => {
      const recall = await recalls.view(request.params.id);
      asCsvDownload(reply, `recall-batch-${recall.batchId}.csv`);
      return csvDocument(
        ['Order', 'Shopper', 'Email', 'Phone', 'Boxes', 'Boxes short', 'Status', 'Packed', 'Dispatched', 'Delivered', 'Action', 'On hold now'],
        recall.orders.map((row) => [
          row.orderNumber,
          row.customerName,
          row.email,
          row.phone,
          String(row.boxes),
          String(row.boxesShort),
          row.status,
          row.packedAt ?? '',
          row.dispatchedAt ?? '',
          row.deliveredAt ?? '',
          recallActionLabels[row.action],
          row.onHold ? 'Yes' : 'No',
        ]),
      );
    });
    app.post('/api/admin/batches/:id/recall/close', { onRequest: adminOnly, schema: { params: batchParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return recalls.close(request.params.id, { userId: admin.id, requestId: request.id });
    });
    /** A held order given the boxes it is short from new stock: it may be packed again. */
    app.post('/api/admin/orders/:number/release-hold', { onRequest: adminOnly, schema: { params: orderParams } }, async (request, reply) => {
      const admin = await requireAdmin(request);
      await recalls.releaseHold(request.params.number, { userId: admin.id, requestId: request.id });
      return reply.code(204).send();
    });
  };
}
