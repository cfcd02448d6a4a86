import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exportRangeSchema } from '../../../contracts/exports';
import { gstReturnQuerySchema } from '../../../contracts/gst-return';
import type { Db } from '../../db/client';
import { asCsvDownload } from '../../lib/csv';
import { adminOnly } from '../auth/request-user';
import { BooksService } from './service';

/** The books: the Xero export and the GST return; staff only. */
export function bookRoutes({ db }: { db: Db }): FastifyPluginAsyncZod {
  return async (app) => {
    const books = new BooksService({ db, settings: app.services.settings });

    app.get('/api/admin/exports/xero-invoices.csv', { onRequest: adminOnly, schema: { querystring: exportRangeSchema } }, async (request, reply) => {
      const csv = await books.xeroInvoices(request.query);
      asCsvDownload(reply, `xero-invoices-${request.query.from}-to-${request.query.to}.csv`);
      return csv;
    });

    app.get('/api/admin/reports/gst-return', { onRequest: adminOnly, schema: { querystring: gstReturnQuerySchema } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return books.gstReturn(request.query);
    });

    app.get('/api/admin/reports/gst-return.csv', { onRequest: adminOnly, schema: { querystring: gstReturnQuerySchema } }, async (request, reply) => {
      const csv = await books.gstReturnCsv(request.query);
      asCsvDownload(reply, `gst-return-${request.query.from}-to-${request.query.to}.csv`);
      return csv;
    });
  };
}
