import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminRoleSchema, customerQuerySchema } from '../../../contracts/customers';
import { idParam } from '../../../contracts/product';
import { adminOnly, requireAdmin } from '../auth/request-user';
import type { CustomerService } from './service';

const customerParams = z.object({ id: idParam('Customer id') });

/** The admin area's customers: list and search, detail, and the admin role; staff only. */
export function customerRoutes(customers: CustomerService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.get('/api/admin/customers', { onRequest: adminOnly, schema: { querystring: customerQuerySchema } }, async (request) => customers.list(request.query));
    app.get('/api/admin/customers/:id', { onRequest: adminOnly, schema: { params: customerParams } }, async (request) => customers.detail(request.params.id));
    app.put('/api/admin/customers/:id/admin', { onRequest: adminOnly, schema: { params: customerParams, body: adminRoleSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return customers.setAdmin(request.params.id, request.body.isAdmin, { userId: admin.id, requestId: request.id });
    });
  };
}
