import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../contracts/product';
import { adminReviewQuerySchema, type OwnReview, reviewHideSchema, reviewPhotoLimits, reviewReplySchema, type ReviewRequest, reviewRequestSchema, reviewsQuerySchema, whoCanReview } from '../../../contracts/reviews';
import { Forbidden } from '../../lib/errors';
import { optOutRoutes } from '../../lib/link-page';
import type { RateLimiter } from '../../lib/rate-limit';
import { cacheTags } from '../../lib/shared-cache';
import { adminOnly, currentUser, requireAdmin, requireUser, signedInOnly } from '../auth/request-user';
import { type PhotoForm, photoFormLimits, photoUpload, type PhotoUploads, readPhotoForm } from '../uploads/photo-form';
import { type ReviewInvites, reviewOptOutPath } from './invites';
import type { ReviewService } from './service';

const reviewsPerShopperPerHour = 20;
const productParams = z.strictObject({ id: idParam('Product id') });
const reviewParams = z.strictObject({ id: idParam('Review id') });
const photoParams = z.strictObject({ id: idParam('Review id'), position: z.coerce.number().int().min(1).max(reviewPhotoLimits.max) });

/** The review form: its JSON field "review", then up to 3 photos. */
const reviewForm: PhotoForm<ReviewRequest> = {
  field: 'review',
  schema: reviewRequestSchema,
  missing: 'Tell other shoppers about the mangoes',
  notAForm: { review: 'Tell other shoppers about the mangoes' },
  photos: reviewPhotoLimits,
  stalled: 'Your photos took too long to arrive. Please check your connection and send the review again.',
};

/** Verified reviews (decision 0049): the product's published ones for anyone, the writer's own, and staff's moderation. */
export function reviewRoutes(deps: { reviews: ReviewService; limiter: RateLimiter; uploads: PhotoUploads }): FastifyPluginAsyncZod {
  const { reviews, limiter, uploads } = deps;
  return async (app) => {
    await app.register(fastifyMultipart, { limits: photoFormLimits(reviewPhotoLimits.max) });

    /** The same for everyone: shared caches keep it under the product's tag, purged when a review of it changes. */
    app.get('/api/products/:id/reviews', { schema: { params: productParams, querystring: reviewsQuerySchema } }, async (request, reply) => {
      const page = await reviews.published(request.params.id, request.query.page, await currentUser(request));
      reply.share({ tags: [cacheTags.product(request.params.id)] });
      return page;
    });

    app.get('/api/products/:id/reviews/mine', { onRequest: signedInOnly, schema: { params: productParams } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reviews.mine(await requireUser(request), request.params.id);
    });

    /**
     * Writes a review. Before any of the form is read: signed in (anyone else hears who may
     * review), counted against the shopper's hourly limit, given an upload slot, and checked as a
     * verified buyer who has not reviewed it yet. A refusal holds none of the rest of the body.
     */
    app.post('/api/products/:id/reviews', { schema: { params: productParams } }, async (request, reply): Promise<OwnReview> => {
      reply.header('cache-control', 'no-store');
      const shopper = async () => {
        const user = await currentUser(request);
        if (!user) throw new Forbidden(`${whoCanReview} Sign in with the account you ordered with.`);
        return user;
      };
      return photoUpload(request, reply, uploads, { noun: 'review', shopper, limiter, perHour: reviewsPerShopperPerHour }, async (user) => {
        await reviews.checkCanWrite(user, request.params.id);
        const form = await readPhotoForm(request, uploads.bodyIdleMs, reviewForm);
        const review = await reviews.create(user, request.params.id, form.value, form.photos, request.id);
        reply.code(201);
        return review;
      });
    });

    app.put('/api/products/:id/reviews/mine', { onRequest: signedInOnly, schema: { params: productParams, body: reviewRequestSchema } }, async (request) =>
      reviews.edit(await requireUser(request), request.params.id, request.body, request.id),
    );

    app.delete('/api/products/:id/reviews/mine', { onRequest: signedInOnly, schema: { params: productParams } }, async (request, reply) => {
      await reviews.remove(await requireUser(request), request.params.id, request.id);
      return reply.code(204).send();
    });

    app.get('/api/reviews/:id/photos/:position', { schema: { params: photoParams } }, async (request, reply) => {
      const photo = await reviews.photo(await currentUser(request), request.params.id, request.params.position);
      // Public photos are kept but asked about each time (a 304 while unchanged): one declined or
      // hidden later is gone at once, not when a cached copy expires.
      if (photo.isPublic) {
        reply.header('cache-control', 'public, no-cache').header('etag', photo.version);
        if (request.headers['if-none-match'] === photo.version) return reply.code(304).send();
      } else reply.header('cache-control', 'private, no-store');
      return reply
        .header('content-length', photo.bytes.length)
        .type('image/jpeg')
        .send(photo.bytes);
    });

    app.get('/api/admin/reviews', { onRequest: adminOnly, schema: { querystring: adminReviewQuerySchema } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reviews.adminList(request.query.filter, request.query.page);
    });

    app.post('/api/admin/reviews/:id/hide', { onRequest: adminOnly, schema: { params: reviewParams, body: reviewHideSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return reviews.hide(request.params.id, request.body.reason, { userId: admin.id, requestId: request.id });
    });

    app.post('/api/admin/reviews/:id/show', { onRequest: adminOnly, schema: { params: reviewParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return reviews.show(request.params.id, { userId: admin.id, requestId: request.id });
    });

    app.put('/api/admin/reviews/:id/reply', { onRequest: adminOnly, schema: { params: reviewParams, body: reviewReplySchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return reviews.reply(request.params.id, request.body.body, { userId: admin.id, requestId: request.id });
    });

    app.delete('/api/admin/reviews/:id/reply', { onRequest: adminOnly, schema: { params: reviewParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return reviews.removeReply(request.params.id, { userId: admin.id, requestId: request.id });
    });

    app.post('/api/admin/reviews/:id/photos/:position/approve', { onRequest: adminOnly, schema: { params: photoParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return reviews.decidePhoto(request.params.id, request.params.position, { approve: true }, { userId: admin.id, requestId: request.id });
    });

    app.post('/api/admin/reviews/:id/photos/:position/decline', { onRequest: adminOnly, schema: { params: photoParams, body: reviewHideSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return reviews.decidePhoto(request.params.id, request.params.position, { approve: false, reason: request.body.reason }, { userId: admin.id, requestId: request.id });
    });
  };
}

/** The opt-out link of the "How were your mangoes?" e-mails. */
export function reviewMailRoutes(invites: ReviewInvites, publicUrl: string): FastifyPluginAsyncZod {
  return optOutRoutes(
    {
      path: reviewOptOutPath,
      ask: {
        title: 'No more review requests?',
        message: 'Press Turn off and we will not e-mail you to ask how your mangoes were. Your order and delivery e-mails stay as they are, and you can still review what you bought on its page.',
      },
      done: {
        title: 'Review requests turned off',
        message: 'We will not e-mail you to ask how your mangoes were. You can still review what you bought on its page, and turn the e-mails back on under My account.',
      },
      invalid: {
        title: 'Link not valid',
        message: 'This link is invalid or no longer works. The link in your latest "How were your mangoes?" e-mail turns them off.',
      },
    },
    invites.optOutLinks,
    publicUrl,
  );
}
