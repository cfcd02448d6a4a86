import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chosenDayField } from '../../../contracts/calendar-fields';
import { idParam } from '../../../contracts/product';
import { changeSubscriptionSchema, pauseSchema, startRunSchema, subscribeSchema, subscriptionStatuses } from '../../../contracts/subscriptions';
import { asCsvDownload } from '../../lib/csv';
import { Conflict, fieldError } from '../../lib/errors';
import { addDays, nzToday } from '../../../contracts/dates';
import { adminOnly, requireAdmin, requireUser, signedInOnly } from '../auth/request-user';
import type { SubscriptionAdmin } from './admin';
import type { SeasonBoxReminders } from './reminders';
import type { SubscriptionRuns } from './runs';
import type { SubscriptionService } from './service';

const subscriptionParams = z.object({ id: idParam('Season box id') });
const deliveryParams = subscriptionParams.extend({ date: chosenDayField('The delivery date must be a date (YYYY-MM-DD)') });

/** The shopper's season boxes: /api/subscriptions (docs/season-box.md). Another shopper's is a 404. */
/** How far ahead staff may start a run early. */
const earlyRunDays = 14;

export function subscriptionRoutes(subscriptions: SubscriptionService, runs: SubscriptionRuns, admin: SubscriptionAdmin, reminders: SeasonBoxReminders, clock: () => Date): FastifyPluginAsyncZod {
  // The first box's reminder when its cut-off is already near; a failure leaves it to the sweep.
  const remindSoon = (id: number, log: { warn(details: object, message: string): void }) =>
    reminders.sendFor(id).catch((error: unknown) => log.warn({ err: error, subscription: id }, 'season box reminder left for the sweep'));
  return async (app) => {
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('cache-control', 'no-store');
      return payload;
    });

    app.post('/api/subscriptions', { onRequest: signedInOnly, schema: { body: subscribeSchema } }, async (request, reply) => {
      const view = await subscriptions.subscribe(await requireUser(request), request.body);
      if (view.status === 'active') await remindSoon(view.id, request.log);
      return reply.code(201).send(view);
    });

    app.get('/api/subscriptions', { onRequest: signedInOnly }, async (request) => subscriptions.listFor(await requireUser(request)));

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
    app.post('/api/subscriptions/:id/resume', { onRequest: signedInOnly, schema: { params: subscriptionParams } }, async (request) => {
      const view = await subscriptions.resume(await requireUser(request), request.params.id);
      await remindSoon(view.id, request.log);
      return view;
    });

    app.post('/api/subscriptions/:id/card', { onRequest: signedInOnly, schema: { params: subscriptionParams } }, async (request) => subscriptions.cardSetupFor(await requireUser(request), request.params.id));

    app.delete('/api/subscriptions/:id', { onRequest: signedInOnly, schema: { params: subscriptionParams } }, async (request) => subscriptions.cancel(await requireUser(request), request.params.id));

    // Staff: every season box, the forecast, a run started early, and stop all.
    const listQuery = z.object({
      status: z.enum(subscriptionStatuses, { error: 'Choose a status' }).optional(),
      page: z.coerce.number({ error: 'Page must be a number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(10_000, 'Page is too large').default(1),
    });
    app.get('/api/admin/subscriptions', { onRequest: adminOnly, schema: { querystring: listQuery } }, async (request) => admin.list(request.query));
    app.get('/api/admin/subscriptions/forecast', { onRequest: adminOnly }, async () => admin.forecast());
    app.get('/api/admin/subscriptions/forecast.csv', { onRequest: adminOnly }, async (_request, reply) => {
      asCsvDownload(reply, 'season-box-forecast.csv');
      return admin.forecastCsv();
    });
    app.get('/api/admin/subscriptions/stop-all', { onRequest: adminOnly }, async () => runs.stopState());
    app.post('/api/admin/subscriptions/stop-all', { onRequest: adminOnly }, async (request) => {
      const staff = await requireAdmin(request);
      return runs.setStopped(true, { userId: staff.id, requestId: request.id });
    });
    app.delete('/api/admin/subscriptions/stop-all', { onRequest: adminOnly }, async (request) => {
      const staff = await requireAdmin(request);
      return runs.setStopped(false, { userId: staff.id, requestId: request.id });
    });
    app.get('/api/admin/subscriptions/:id', { onRequest: adminOnly, schema: { params: subscriptionParams } }, async (request) => admin.detail(request.params.id));

    app.post('/api/admin/subscription-runs', { onRequest: adminOnly, schema: { body: startRunSchema } }, async (request) => {
      // Early means this week or next: a past day's boxes are gone, and stock is not claimed weeks ahead.
      const today = nzToday(clock());
      const { deliveryDate } = request.body;
      if (deliveryDate < today || deliveryDate > addDays(today, earlyRunDays)) {
        throw fieldError('deliveryDate', `Choose a delivery date from today to ${earlyRunDays} days ahead.`);
      }
      const result = await runs.run(request.body.deliveryDate, { early: true });
      if (result.stopped) throw new Conflict('Season boxes are stopped: turn them back on before starting a run.');
      return result;
    });
  };
}
