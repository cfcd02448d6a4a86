import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliverySettingsSchema } from '../../../contracts/delivery';
import { centsToDollars } from '../../../contracts/money';
import { nzRegions } from '../../../contracts/order';
import { adminOnly, requireAdmin } from '../auth/request-user';
import type { DeliveryService } from './service';

const datesQuery = z.object({
  region: z.enum(nzRegions, { error: 'Choose a region' }),
  boxes: z.coerce.number({ error: 'Boxes must be a whole number' }).int('Boxes must be a whole number').min(1, 'Boxes must be at least 1').max(1000, 'Boxes must be at most 1000').default(1),
});

/** Delivery days: the dates a region can have (anyone), and the settings behind them (staff). */
export function deliveryRoutes(delivery: DeliveryService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/api/delivery/dates', { schema: { querystring: datesQuery } }, async (request) => {
      const settings = await delivery.settings();
      return {
        region: request.query.region,
        dates: await delivery.options(request.query.region, request.query.boxes, undefined, settings),
        ruralSurcharge: centsToDollars(settings.ruralSurchargeCents),
      };
    });

    app.get('/api/admin/delivery', { onRequest: adminOnly }, async () => delivery.settings());

    app.put('/api/admin/delivery', { onRequest: adminOnly, schema: { body: deliverySettingsSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return delivery.update(request.body, { userId: admin.id, requestId: request.id });
    });
  };
}
