import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageSlugPattern } from '../../../contracts/content-admin';
import type { Db } from '../../db/client';
import { cacheTags } from '../../lib/shared-cache';
import type { ImageSizes } from '../uploads/image-sizes';
import { findContentPage, listBanners, listTestimonials } from './service';

const slugParams = z.strictObject({ slug: z.string().max(80, 'Page not found').regex(pageSlugPattern, 'Page not found') });
const locationParams = z.strictObject({ location: z.string().max(40, 'Unknown location').regex(/^[a-z0-9_]+$/, 'Unknown location') });

export function contentRoutes(db: Db, imageSizes: ImageSizes): FastifyPluginAsyncZod {
  return async (app) => {
    // The same for everyone: shared caches keep them under what they show (docs/shared-cache.md).
    app.get('/api/testimonials', async (_request, reply) => {
      reply.share({ tags: [cacheTags.testimonials] });
      return listTestimonials(db, imageSizes);
    });
    app.get('/api/content/banners/location/:location', { schema: { params: locationParams } }, async (request, reply) => {
      reply.share({ tags: [cacheTags.banners] });
      return listBanners(db, imageSizes, request.params.location);
    });
    app.get('/api/content/pages/:slug', { schema: { params: slugParams } }, async (request, reply) => {
      reply.share({ tags: [cacheTags.content(request.params.slug)] });
      return findContentPage(db, request.params.slug);
    });
  };
}
