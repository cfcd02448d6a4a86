import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AdminOrderDetail, adminOrderQuerySchema, bulkStatusSchema, type BulkStatusResult, orderNoteSchema, orderStatusChangeSchema, type ResentMail, statusChangeProblems } from '../../../contracts/admin-orders';
import { AppError, BadRequest } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import type { Db } from '../../db/client';
import { orderLines, orderNotes, users } from '../../db/schema';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { packingOf } from '../inventory/packing-plans';
import { refundMethodOf } from './refunds';
import { orderParams } from './routes';
import { z } from 'zod';
import type { OrderService } from './service';
import { listOrdersForStaff, ordersCsv } from './staff';
import { asCsvDownload } from '../../lib/csv';
import { type OrderRow, pairedOrderOf } from './view';

/** `:id` of a refund; anything else is simply not one. */
const refundParams = z.object({ id: z.coerce.number({ error: 'Refund not found' }).int('Refund not found').min(1, 'Refund not found').max(2_147_483_647, 'Refund not found') });

/** The admin area's orders: list, detail, lifecycle steps and CSV export; staff only. */
export function staffOrderRoutes(deps: { db: Db; orders: OrderService; limiter: RateLimiter }): FastifyPluginAsyncZod {
  const { db, orders, limiter } = deps;
  /** The order as its customer sees it, and who the customer is. */
  const detailOf = async (order: OrderRow): Promise<AdminOrderDetail> => {
    const [customer] = await db.select().from(users).where(eq(users.id, order.userId));
    const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id));
    const packing = await packingOf(db, [order], lines);
    const notes = await db
      .select({ id: orderNotes.id, text: orderNotes.text, at: orderNotes.createdAt, firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(orderNotes)
      .leftJoin(users, eq(users.id, orderNotes.authorUserId))
      .where(eq(orderNotes.orderId, order.id))
      .orderBy(asc(orderNotes.createdAt), asc(orderNotes.id));
    return {
      ...(await orders.view(order)),
      lineBatches: lines.map((line) => packing.get(line.id) ?? null),
      refundBy: refundMethodOf(order),
      notes: notes.map((note) => ({ id: note.id, text: note.text, at: note.at.toISOString(), author: note.username ? `${note.firstName} ${note.lastName}`.trim() || note.username : null })),
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

    /** A note for staff on the order (who rang, what was promised); the shopper never sees it. */
    app.post('/api/admin/orders/:number/notes', { onRequest: adminOnly, schema: { params: orderParams, body: orderNoteSchema } }, async (request, reply) => {
      const admin = await requireAdmin(request);
      const order = await orders.findFor(admin, request.params.number, true);
      await db.insert(orderNotes).values({ orderId: order.id, text: request.body.text, authorUserId: admin.id });
      reply.code(201);
      return detailOf(order);
    });

    /**
     * "Mark paid" or "Mark packed" on many orders at once: each order is stepped on its own, as from
     * its page (its checks, its e-mail, its audit entry), and the answer says how each went.
     */
    app.post('/api/admin/orders/bulk-status', { onRequest: adminOnly, schema: { body: bulkStatusSchema } }, async (request): Promise<BulkStatusResult> => {
      const admin = await requireAdmin(request);
      const { status, numbers } = request.body;
      const results: BulkStatusResult['results'] = [];
      const paidNow = new Set<number>();
      for (const number of numbers) {
        try {
          const order = await orders.findFor(admin, number, true);
          // Paid already with the other order of its pair, earlier in this batch: nothing left to do.
          const paired = status === 'paid' && order.status === 'paid' ? await pairedOrderOf(db, order) : null;
          if (paired && paidNow.has(paired.id)) {
            results.push({ number: order.number, ok: true });
            continue;
          }
          // Stripe says when a card order is paid; marking one by hand is a choice made on its own page.
          if (status === 'paid' && order.paymentMethod === 'stripe' && order.status === 'pending_payment') {
            results.push({ number: order.number, ok: false, message: 'A card order is marked paid when Stripe confirms its payment: open the order to mark it paid by hand.' });
            continue;
          }
          await orders.changeStatus(order.id, status, { actorUserId: admin.id, note: '', audit: { requestId: request.id } });
          paidNow.add(order.id);
          results.push({ number: order.number, ok: true });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          results.push({ number, ok: false, message: error.message });
        }
      }
      return { results };
    });

    /** The order's confirmation e-mail again, with its details as they are now; a few times an hour at most. */
    app.post('/api/admin/orders/:number/resend-email', { onRequest: adminOnly, schema: { params: orderParams } }, async (request): Promise<ResentMail> => {
      const admin = await requireAdmin(request);
      const order = await orders.findFor(admin, request.params.number, true);
      // Counted before anything is mailed: a stuck button cannot flood the shopper.
      await limiter.consume({ key: `resend-mail:${order.id}`, max: 3, windowMs: 60 * 60 * 1000 }, 'This order’s e-mail has been sent 3 times in the last hour. Please wait before sending it again.');
      return orders.resendConfirmation(order, admin, request.id);
    });

    /** Refunds not paid back yet: transfers owed (with the account the shopper gave) and card refunds Stripe has not taken. */
    app.get('/api/admin/refunds', { onRequest: adminOnly }, async () => ({ refunds: await orders.refunds.open() }));

    /** Staff paid an owed transfer: only now is it refunded, and the shopper is told. */
    app.post('/api/admin/refunds/:id/paid-out', { onRequest: adminOnly, schema: { params: refundParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return orders.refunds.markPaidOut(request.params.id, admin, request.id);
    });

    /** Sends a card refund Stripe has not taken yet again, now. */
    app.post('/api/admin/refunds/:id/retry', { onRequest: adminOnly, schema: { params: refundParams } }, async (request) => {
      await requireAdmin(request);
      return orders.refunds.retry(request.params.id);
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
