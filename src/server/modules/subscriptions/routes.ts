import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chosenDayField } from '../../../contracts/calendar-fields';
import { idParam } from '../../../contracts/product';
import { changeSubscriptionSchema, pauseSchema, subscribeSchema } from '../../../contracts/subscriptions';
import { requireUser, signedInOnly } from '../auth/request-user';
import type { SubscriptionService } from './service';

const subscriptionParams = z.object({ id: idParam('Season box id') });
const deliveryParams = subscriptionParams.extend({ date: chosenDayField('The delivery date must be a date (YYYY-MM-DD)') });

/** The shopper's season boxes: /api/subscriptions (docs/season-box.md). Another shopper's is a 404. */
export function subscriptionRoutes(subscriptions: SubscriptionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('cache-control', 'no-store');
      return payload;
    });

    app.post('/api/subscriptions', { onRequest: signedInOnly, schema: { body: subscribeSchema } }, async (request, reply) => {
      const view = await subscriptions.subscribe(await requireUser(request), request.body);
      return reply.code(201).send(view);
    });

    app.get('/api/subscriptions', { onRequest: signedInOnly }, async (request) => ({ subscriptions: await subscriptions.listFor(await requireUser(request)) }));

    app.get('/api/subscriptions/:id', { onRequest: signedInOnly, schema: { params: subscriptionParams } }, async (request) => subscriptions.getFor(await requireUser(request), request.params.id));

    app.patch('/api/subscriptions/:id', { onRequest: signedInOnly, schema: { params: subscriptionParams, body: changeSubscriptionSchema } }, async (request) =>
      subscriptions.change(await requireUser(request), request.params.id, request.body),
    );

    app.post('/api/subscriptions/:id/deliveries/:date/skip', { onRequest: signedInOnly, schema: { params: deliveryParams } }, async (request) =>
      subscriptions.skip(await requireUser(request), request.params.id, request.params.date),
    );
    app.delete('/api/subscriptions/:id/deliveries/:date/skip', { onRequest: signedInOnly, schema: { params: deliveryParams } }, async (request) =>
      subscriptions.unskip(await requireUser(request), request.params.id, request.params.date),
    );

    app.post('/api/subscriptions/:id/pause', { onRequest: signedInOnly, schema: { params: subscriptionParams, body: pauseSchema } }, async (request) =>
      subscriptions.pause(await requireUser(request), request.params.id, request.body?.resumeOn ?? null),
    );
    app.post('/api/subscriptions/:id/resume', { onRequest: signedInOnly, schema: { params: subscriptionParams } }, async (request) => subscriptions.resume(await requireUser(request), request.params.id));

    app.delete('/api/subscriptions/:id', { onRequest: signedInOnly, schema: { params: subscriptionParams } }, async (request) => subscriptions.cancel(await requireUser(request), request.params.id));
  };
}
