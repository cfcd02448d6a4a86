import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import { appRoutes, contentPagePath } from '../../../contracts/routes';
import type { Db } from '../../db/client';
import { contentPages, products } from '../../db/schema';

/** Pages that are a shopper's own or a step of buying: nothing for a search engine to index. */
const privatePaths = ['/admin', '/account', '/order/', '/cart', '/checkout', '/success', '/reset-password', '/auth', '/api/'];

export interface SeoDeps {
  db: Db;
  /** PUBLIC_URL when set: the address search engines should use. */
  publicUrl: string | undefined;
}

/** The shop's own address: PUBLIC_URL, or the one this request came to. */
function siteUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** A W3C date-time in UTC, to the second, as sitemaps take it. */
const lastModified = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** /robots.txt and /sitemap.xml: what search engines may crawl, and every page worth finding. */
export function seoRoutes({ db, publicUrl }: SeoDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/robots.txt', async (request, reply) => {
      const lines = ['User-agent: *', ...privatePaths.map((path) => `Disallow: ${path}`), '', `Sitemap: ${siteUrl(request, publicUrl)}/sitemap.xml`, ''];
      reply.header('cache-control', 'public, max-age=3600').type('text/plain; charset=utf-8');
      return lines.join('\n');
    });

    app.get('/sitemap.xml', async (request, reply) => {
      const base = siteUrl(request, publicUrl);
      const visible = await db
        .select({ id: products.id, updatedAt: products.updatedAt })
        .from(products)
        .where(eq(products.isHidden, false))
        .orderBy(asc(products.id));
      const pages = await db.select({ slug: contentPages.slug, updatedAt: contentPages.updatedAt }).from(contentPages).orderBy(asc(contentPages.slug));
      // The home page and the shop list the products: they change when one of them does.
      const newestProduct = visible.reduce<Date | undefined>((newest, p) => (!newest || p.updatedAt > newest ? p.updatedAt : newest), undefined);
      const entries: Array<{ path: string; modified: Date | undefined }> = [
        { path: appRoutes.home, modified: newestProduct },
        { path: appRoutes.shop, modified: newestProduct },
        ...visible.map((p) => ({ path: appRoutes.product.replace(':id', String(p.id)), modified: p.updatedAt })),
        ...pages.map((page) => ({ path: contentPagePath(page.slug), modified: page.updatedAt })),
      ];
      const urls = entries.map(
        ({ path, modified }) => `  <url><loc>${escapeXml(base + path)}</loc>${modified ? `<lastmod>${lastModified(modified)}</lastmod>` : ''}</url>`,
      );
      reply.header('cache-control', 'public, max-age=600').type('application/xml; charset=utf-8');
      return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
    });
  };
}
