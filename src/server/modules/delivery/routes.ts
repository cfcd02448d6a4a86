import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliverySettingsUpdateSchema } from '../../../contracts/delivery';
import { centsToDollars } from '../../../contracts/money';
import { dispatchQuerySchema, moveDeliverySchema } from '../../../contracts/dispatch';
import { checkoutPaymentMethods, nzRegions, orderNumberPattern } from '../../../contracts/order';
import { adminOnly, requireAdmin } from '../auth/request-user';
import type { DispatchService } from './dispatch';
import { asCsvDownload } from '../../lib/csv';
import type { DeliveryService } from './service';

/** How the order would be paid: a bank transfer is never packed on the first packing day. */
const paymentQuery = z.enum(checkoutPaymentMethods, { error: 'Payment must be bank_transfer or stripe' }).optional();

const datesQuery = z.object({
  region: z.enum(nzRegions, { error: 'Choose a region' }),
  boxes: z.coerce.number({ error: 'Boxes must be a whole number' }).int('Boxes must be a whole number').min(1, 'Boxes must be at least 1').max(1000, 'Boxes must be at most 1000').default(1),
  payment: paymentQuery,
});

const orderParams = z.object({ number: z.string().regex(orderNumberPattern, 'Order not found') });

/** Delivery days: the dates a region can have (anyone), the settings behind them and the dispatch list (staff). */
export function deliveryRoutes(delivery: DeliveryService, dispatch: DispatchService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/api/delivery/dates', { schema: { querystring: datesQuery } }, async (request) => {
      const settings = await delivery.settings();
      return {
        region: request.query.region,
        dates: await delivery.options(request.query.region, request.query.boxes, undefined, settings, request.query.payment),
        ruralSurcharge: centsToDollars(settings.ruralSurchargeCents),
      };
    });

    /** Click-and-collect: whether it is offered, where, and the days a shopper can choose (the same shape as delivery dates). */
    app.get('/api/pickup/dates', { schema: { querystring: z.object({ payment: paymentQuery }) } }, async (request) => delivery.pickup(request.query.payment));

    app.get('/api/admin/delivery', { onRequest: adminOnly }, async () => delivery.settings());

    app.get('/api/admin/dispatch', { onRequest: adminOnly, schema: { querystring: dispatchQuerySchema } }, async (request) => dispatch.day(request.query.date));

    app.get('/api/admin/dispatch.csv', { onRequest: adminOnly, schema: { querystring: dispatchQuerySchema } }, async (request, reply) => {
      asCsvDownload(reply, `dispatch-${request.query.date}.csv`);
      return dispatch.csv(request.query.date);
    });

    /** Moves an unsent order to another delivery day within capacity, and e-mails the shopper. */
    app.post('/api/admin/orders/:number/delivery-date', { onRequest: adminOnly, schema: { params: orderParams, body: moveDeliverySchema } }, async (request) => {
      const admin = await requireAdmin(request);
      const moved = await dispatch.move(request.params.number, request.body, { userId: admin.id, requestId: request.id });
      return { number: moved.number, deliveryDate: moved.deliveryDate, dispatchDate: moved.dispatchDate };
    });

    app.put('/api/admin/delivery', { onRequest: adminOnly, schema: { body: deliverySettingsUpdateSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return delivery.update(request.body, { userId: admin.id, requestId: request.id });
    });
  };
}
