import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { storedSettingsSchema } from '../../../contracts/settings';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { cacheTags } from '../../lib/shared-cache';
import type { SetupChecklist } from '../../../contracts/setup';
import type { SettingsService } from './service';

/** The shop's settings; `setup` answers what a new shop still lacks (the dashboard's setup list). */
export function settingsRoutes(settings: SettingsService, setup: () => Promise<SetupChecklist>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/settings', async (_request, reply) => {
      reply.share({ tags: [cacheTags.settings] }).type('application/json; charset=utf-8');
      return reply.send(await settings.publicJson());
    });

    app.get('/api/admin/settings', { onRequest: adminOnly }, async () => settings.stored());

    app.get('/api/admin/setup', { onRequest: adminOnly }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return setup();
    });

    app.put('/api/admin/settings', { onRequest: adminOnly, schema: { body: storedSettingsSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return settings.update(request.body, { userId: admin.id, requestId: request.id });
    });
  };
}
