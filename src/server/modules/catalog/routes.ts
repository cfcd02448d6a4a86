import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminProductQuerySchema, productArchiveSchema } from '../../../contracts/admin-products';
import { createProductSchema, idParam, productSearchSchema, updateProductSchema } from '../../../contracts/product';
import { adminOnly, currentUser, requireAdmin } from '../auth/request-user';
import { NotFound } from '../../lib/errors';
import { cacheTags } from '../../lib/shared-cache';
import type { CatalogService } from './service';

const productParams = z.strictObject({ id: idParam('Product id') });

export function catalogRoutes(catalog: CatalogService): FastifyPluginAsyncZod {
  return async (app) => {
    /** The same for everyone: shared caches keep it under the catalogue's tag and each product's. */
    app.get('/api/products', { schema: { querystring: productSearchSchema } }, async (request, reply) => {
      if (request.query.search !== undefined) {
        const found = await catalog.search(request.query.search);
        reply.share({ tags: [cacheTags.catalog, ...found.map((p) => cacheTags.product(p.id))], until: catalog.nextChangeByClock(found) });
        return found;
      }
      const snapshot = await catalog.current();
      reply.share({ tags: snapshot.visibleTags, until: catalog.nextChangeByClock(snapshot.visible) }).header('etag', snapshot.etag);
      if (request.headers['if-none-match'] === snapshot.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(snapshot.visibleJson);
    });

    app.get('/api/products/:id', { schema: { params: productParams } }, async (request, reply) => {
      const product = await catalog.findOne(request.params.id, true);
      if (product.isHidden && !(await currentUser(request))?.isAdmin) throw new NotFound('Product not found');
      // A hidden product's answer is staff's own: the shared-cache rules make it private.
      reply.share({ tags: [cacheTags.product(product.id)], until: catalog.nextChangeByClock([product]) });
      return reply.type('application/json; charset=utf-8').send(await catalog.productJson(product));
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
