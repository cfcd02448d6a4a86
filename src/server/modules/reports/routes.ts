import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditQuerySchema, reportQuerySchema, reportTables } from '../../../contracts/reports';
import type { Db } from '../../db/client';
import type { CacheBus } from '../../lib/cache-bus';
import { adminOnly } from '../auth/request-user';
import { InventoryService } from '../inventory/service';
import { asCsvDownload } from '../../lib/csv';
import { ReportService } from './service';

/** The admin area's reports and dashboard figures; staff only. */
export function reportRoutes({ db, bus }: { db: Db; bus: CacheBus }): FastifyPluginAsyncZod {
  return async (app) => {
    const { settings } = app.services;
    const reports = new ReportService({ db, settings, inventory: new InventoryService({ db, settings, bus }) });

    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/api/admin/dashboard', { onRequest: adminOnly }, async () => reports.dashboard());

    app.get('/api/admin/audit', { onRequest: adminOnly, schema: { querystring: auditQuerySchema } }, async (request) => reports.audit(request.query));

    app.get('/api/admin/reports', { onRequest: adminOnly, schema: { querystring: reportQuerySchema } }, async (request) => reports.salesReport(request.query));

    for (const table of reportTables) {
      app.get(`/api/admin/reports/${table}.csv`, { onRequest: adminOnly, schema: { querystring: reportQuerySchema } }, async (request, reply) => {
        const { from, to } = request.query;
        asCsvDownload(reply, `${table}-${from}-to-${to}.csv`);
        return reports.csv(table, request.query);
      });
    }
  };
}
