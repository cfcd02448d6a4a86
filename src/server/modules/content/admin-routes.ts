import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createBannerSchema,
  createPageSchema,
  createTestimonialSchema,
  pageSlugMaxLength,
  pageSlugPattern,
  reorderSchema,
  updateBannerSchema,
  updatePageSchema,
  updateTestimonialSchema,
} from '../../../contracts/content-admin';
import { idParam } from '../../../contracts/product';
import type { Db } from '../../db/client';
import type { CacheBus } from '../../lib/cache-bus';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { ContentAdminService } from './admin-service';

const testimonialParams = z.object({ id: idParam('Testimonial id') });
const bannerParams = z.object({ id: idParam('Banner id') });
const pageParams = z.object({ slug: z.string().max(pageSlugMaxLength, 'Page not found').regex(pageSlugPattern, 'Page not found') });

/** The admin area's testimonials, content pages and banners; staff only. */
export function contentAdminRoutes(deps: { db: Db; bus: CacheBus }): FastifyPluginAsyncZod {
  const content = new ContentAdminService(deps);
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    const staff = { onRequest: adminOnly };
    const actorOf = async (request: Parameters<typeof requireAdmin>[0]) => ({ userId: (await requireAdmin(request)).id, requestId: request.id });

    app.get('/api/admin/testimonials', staff, async () => content.listTestimonials());
    app.post('/api/admin/testimonials', { ...staff, schema: { body: createTestimonialSchema } }, async (request, reply) =>
      reply.code(201).send(await content.createTestimonial(request.body, await actorOf(request))),
    );
    app.put('/api/admin/testimonials/order', { ...staff, schema: { body: reorderSchema } }, async (request) =>
      content.reorderTestimonials(request.body.ids, await actorOf(request)),
    );
    app.put('/api/admin/testimonials/:id', { ...staff, schema: { params: testimonialParams, body: updateTestimonialSchema } }, async (request) =>
      content.updateTestimonial(request.params.id, request.body, await actorOf(request)),
    );
    app.delete('/api/admin/testimonials/:id', { ...staff, schema: { params: testimonialParams } }, async (request) => {
      await content.deleteTestimonial(request.params.id, await actorOf(request));
      return { message: 'Testimonial deleted' };
    });

    app.get('/api/admin/content/banners', staff, async () => content.listBanners());
    app.post('/api/admin/content/banners', { ...staff, schema: { body: createBannerSchema } }, async (request, reply) =>
      reply.code(201).send(await content.createBanner(request.body, await actorOf(request))),
    );
    app.put('/api/admin/content/banners/order', { ...staff, schema: { body: reorderSchema } }, async (request) =>
      content.reorderBanners(request.body.ids, await actorOf(request)),
    );
    app.put('/api/admin/content/banners/:id', { ...staff, schema: { params: bannerParams, body: updateBannerSchema } }, async (request) =>
      content.updateBanner(request.params.id, request.body, await actorOf(request)),
    );
    app.delete('/api/admin/content/banners/:id', { ...staff, schema: { params: bannerParams } }, async (request) => {
      await content.deleteBanner(request.params.id, await actorOf(request));
      return { message: 'Banner deleted' };
    });

    app.get('/api/admin/content/pages', staff, async () => content.listPages());
    app.post('/api/admin/content/pages', { ...staff, schema: { body: createPageSchema } }, async (request, reply) =>
      reply.code(201).send(await content.createPage(request.body, await actorOf(request))),
    );
    app.get('/api/admin/content/pages/:slug', { ...staff, schema: { params: pageParams } }, async (request) => content.findPage(request.params.slug));
    app.put('/api/admin/content/pages/:slug', { ...staff, schema: { params: pageParams, body: updatePageSchema } }, async (request) =>
      content.updatePage(request.params.slug, request.body, await actorOf(request)),
    );
    app.delete('/api/admin/content/pages/:slug', { ...staff, schema: { params: pageParams } }, async (request) => {
      await content.deletePage(request.params.slug, await actorOf(request));
      return { message: 'Page deleted' };
    });
  };
}
