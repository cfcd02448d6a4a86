import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { storedSettingsSchema } from '../../../contracts/settings';
import { adminOnly, requireAdmin } from '../auth/request-user';
import type { SettingsService } from './service';

export function settingsRoutes(settings: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/settings', async (_request, reply) => {
      reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
      return reply.send(await settings.publicJson());
    });

    app.get('/api/admin/settings', { onRequest: adminOnly }, async () => settings.stored());

    app.put('/api/admin/settings', { onRequest: adminOnly, schema: { body: storedSettingsSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return settings.update(request.body, { userId: admin.id, requestId: request.id });
    });
  };
}
