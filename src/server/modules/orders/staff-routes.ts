import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AdminOrderDetail, adminOrderQuerySchema, orderStatusChangeSchema, statusChangeProblems } from '../../../contracts/admin-orders';
import { BadRequest } from '../../lib/errors';
import type { Db } from '../../db/client';
import { orderLines, users } from '../../db/schema';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { packingOf } from '../inventory/packing-plans';
import { orderParams } from './routes';
import type { OrderService } from './service';
import { listOrdersForStaff, ordersCsv } from './staff';
import { asCsvDownload } from '../../lib/csv';
import type { OrderRow } from './view';

/** The admin area's orders: list, detail, lifecycle steps and CSV export; staff only. */
export function staffOrderRoutes(deps: { db: Db; orders: OrderService }): FastifyPluginAsyncZod {
  const { db, orders } = deps;
  /** The order as its customer sees it, and who the customer is. */
  const detailOf = async (order: OrderRow): Promise<AdminOrderDetail> => {
    const [customer] = await db.select().from(users).where(eq(users.id, order.userId));
    const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id));
    const packing = await packingOf(db, [order], lines);
    return {
      ...(await orders.view(order)),
      lineBatches: lines.map((line) => packing.get(line.id) ?? null),
      customer: { id: order.userId, name: `${customer?.firstName ?? ''} ${customer?.lastName ?? ''}`.trim(), email: customer?.email ?? '', phone: customer?.phone ?? '' },
    };
  };
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/api/admin/orders', { onRequest: adminOnly, schema: { querystring: adminOrderQuerySchema } }, async (request) => listOrdersForStaff(db, request.query));

    app.get('/api/admin/orders.csv', { onRequest: adminOnly, schema: { querystring: adminOrderQuerySchema } }, async (request, reply) => {
      const { page: _page, pageSize: _pageSize, ...filters } = request.query;
      const stamp = new Date().toISOString().slice(0, 10);
      asCsvDownload(reply, `orders-${stamp}.csv`);
      return ordersCsv(db, filters);
    });

    app.get('/api/admin/orders/:number', { onRequest: adminOnly, schema: { params: orderParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return detailOf(await orders.findFor(admin, request.params.number, true));
    });

    /** A lifecycle step by staff (mark paid, packed, shipped with tracking, delivered, cancel, refund), audited. */
    app.post('/api/admin/orders/:number/status', { onRequest: adminOnly, schema: { params: orderParams, body: orderStatusChangeSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      const order = await orders.findFor(admin, request.params.number, true);
      const { status, trackingNumber, carrier, note } = request.body;
      const problems = statusChangeProblems(request.body, order.fulfilment);
      if (Object.keys(problems).length) throw new BadRequest(Object.values(problems)[0]!, problems);
      const courier = status === 'shipped' && order.fulfilment === 'delivery';
      const changed = await orders.changeStatus(order.id, status, {
        actorUserId: admin.id,
        note: note ?? '',
        trackingNumber: courier ? trackingNumber : undefined,
        carrier: courier ? carrier : undefined,
        audit: { requestId: request.id },
      });
      return detailOf(changed!);
    });
  };
}
