import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminClaimQuerySchema, claimApprovalSchema, claimDeclineSchema, claimPhotoLimits, claimRequestSchema, type ClaimRequest, type ClaimView } from '../../../contracts/claims';
import { idParam } from '../../../contracts/product';
import type { RateLimiter } from '../../lib/rate-limit';
import { adminOnly, requireAdmin, requireUser, signedInOnly } from '../auth/request-user';
import { orderParams } from '../orders/routes';
import { type PhotoForm, photoFormLimits, photoUpload, type PhotoUploads, readPhotoForm } from '../uploads/photo-form';
import type { ClaimService } from './service';

const claimsPerShopperPerHour = 20;
const claimParams = z.object({ id: idParam('Claim id') });
const photoParams = z.object({ id: idParam('Claim id'), position: z.coerce.number().int().min(1).max(claimPhotoLimits.max) });
/** The claim form: its JSON field "claim", then 1 to 5 photos. */
function claimForm(check: (claim: ClaimRequest) => Promise<void>): PhotoForm<ClaimRequest> {
  return {
    field: 'claim',
    schema: claimRequestSchema,
    missing: 'Tell us about the problem',
    notAForm: { photos: 'Add at least one photo' },
    check,
    photos: claimPhotoLimits,
    tooFew: 'Add at least one photo of the mangoes',
    stalled: 'Your photos took too long to arrive. Please check your connection and send the claim again.',
  };
}

/** Freshness claims: the shopper's side on their order, and the staff's queue. */
export function claimRoutes(deps: { claims: ClaimService; limiter: RateLimiter; uploads: PhotoUploads }): FastifyPluginAsyncZod {
  const { claims, limiter, uploads } = deps;
  return async (app) => {
    await app.register(fastifyMultipart, { limits: photoFormLimits(claimPhotoLimits.max) });
    app.addHook('onSend', async (_request, reply) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });

    app.get('/api/orders/:number/claims', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request) => claims.forOrder(await requireUser(request), request.params.number));

    /**
     * Reports a problem. Before any of the form is read: counted against the shopper's hourly
     * limit, given one of the upload slots, and the order checked as open for claims. A refusal
     * holds none of the rest of the body.
     */
    app.post('/api/orders/:number/claims', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request, reply): Promise<ClaimView> =>
      photoUpload(request, reply, uploads, { noun: 'claim', shopper: () => requireUser(request), limiter, perHour: claimsPerShopperPerHour }, async (user) => {
        const order = await claims.claimableOrder(user, request.params.number);
        const form = await readPhotoForm(request, uploads.bodyIdleMs, claimForm((claim) => claims.checkCanClaim(order, claim)));
        const claim = await claims.create(user, order, form.value, form.photos, request.id);
        reply.code(201);
        return claim;
      }),
    );

    app.get('/api/claims/:id/photos/:position', { onRequest: signedInOnly, schema: { params: photoParams } }, async (request, reply) => {
      const bytes = await claims.photo(await requireUser(request), request.params.id, request.params.position);
      return reply.header('cache-control', 'private, max-age=3600').header('content-length', bytes.length).type('image/jpeg').send(bytes);
    });

    app.get('/api/admin/claims', { onRequest: adminOnly, schema: { querystring: adminClaimQuerySchema } }, async (request) => claims.queue(request.query.status));

    app.get('/api/admin/claims/:id', { onRequest: adminOnly, schema: { params: claimParams } }, async (request) => claims.staffView(request.params.id));

    app.post('/api/admin/claims/:id/review', { onRequest: adminOnly, schema: { params: claimParams } }, async (request) => {
      const admin = await requireAdmin(request);
      return claims.startReview(request.params.id, { userId: admin.id, requestId: request.id });
    });

    app.post('/api/admin/claims/:id/approve', { onRequest: adminOnly, schema: { params: claimParams, body: claimApprovalSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return claims.approve(request.params.id, request.body, { userId: admin.id, requestId: request.id });
    });

    app.post('/api/admin/claims/:id/decline', { onRequest: adminOnly, schema: { params: claimParams, body: claimDeclineSchema } }, async (request) => {
      const admin = await requireAdmin(request);
      return claims.decline(request.params.id, request.body.reason, { userId: admin.id, requestId: request.id });
    });
  };
}
