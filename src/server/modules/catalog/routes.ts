import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminProductQuerySchema, productArchiveSchema } from '../../../contracts/admin-products';
import { createProductSchema, idParam, productSearchSchema, updateProductSchema } from '../../../contracts/product';
import { adminOnly, currentUser, requireAdmin } from '../auth/request-user';
import { NotFound } from '../../lib/errors';
import type { CatalogService } from './service';

const productParams = z.strictObject({ id: idParam('Product id') });

export function catalogRoutes(catalog: CatalogService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/products', { schema: { querystring: productSearchSchema } }, async (request, reply) => {
      if (request.query.search !== undefined) return catalog.search(request.query.search);
      const snapshot = await catalog.current();
      reply.header('etag', snapshot.etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === snapshot.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(snapshot.visibleJson);
    });

    app.get('/api/products/:id', { schema: { params: productParams } }, async (request) => {
      const product = await catalog.findOne(request.params.id, true);
      if (product.isHidden && !(await currentUser(request))?.isAdmin) throw new NotFound('Product not found');
      return catalog.withHarvest(product);
    });

    app.get('/api/admin/products', { onRequest: adminOnly }, async () => (await catalog.current()).all);

    app.get('/api/admin/products/page', { onRequest: adminOnly, schema: { querystring: adminProductQuerySchema } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return catalog.adminPage(request.query);
    });

    app.put('/api/admin/products/:id/archive', { onRequest: adminOnly, schema: { params: productParams, body: productArchiveSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return catalog.setArchived(request.params.id, request.body.archived, { userId: admin.id, requestId: request.id });
    });

    app.post('/api/products', { onRequest: adminOnly, schema: { body: createProductSchema } }, async (request, reply) => {
      const admin = await requireAdmin(request);
      return reply.code(201).send(await catalog.create(request.body, { userId: admin.id, requestId: request.id }));
    });

    app.put('/api/products/:id', { onRequest: adminOnly, schema: { params: productParams, body: updateProductSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return catalog.update(request.params.id, request.body, { userId: admin.id, requestId: request.id });
    });

    app.delete('/api/products/:id', { onRequest: adminOnly, schema: { params: productParams } }, async (request) => {
      const admin = await requireAdmin(request);
      await catalog.remove(request.params.id, { userId: admin.id, requestId: request.id });
      return { message: 'Product deleted' };
    });
  };
}
