import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminClaimQuerySchema, claimApprovalSchema, claimDeclineSchema, claimPhotoLimits, claimRequestSchema, type ClaimRequest, type ClaimView } from '../../../contracts/claims';
import { idParam } from '../../../contracts/product';
import { AppError, BadRequest } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { adminOnly, requireAdmin, requireUser, signedInOnly } from '../auth/request-user';
import { orderParams } from '../orders/routes';
import { maxImageBytes, sniffImage } from '../uploads/images';
import { claimPhoto, maxPicturePixels, PictureTooLarge, uprightSize } from '../uploads/picture-processing';
import type { ClaimService } from './service';

const claimsPerShopperPerHour = 20;
const claimParams = z.object({ id: idParam('Claim id') });
const photoParams = z.object({ id: idParam('Claim id'), position: z.coerce.number().int().min(1).max(claimPhotoLimits.max) });
const megabytes = maxImageBytes / 1024 / 1024;

const photoError = (message: string) => new BadRequest(message, { photos: message });

/** The form's parts: the claim (a JSON text field named "claim") and up to five photo files. */
async function readClaimForm(request: FastifyRequest): Promise<{ claim: ClaimRequest; photos: Buffer[] }> {
  if (!request.isMultipart()) throw new BadRequest('Send the claim as a form with its photos', { photos: 'Add at least one photo' });
  let claimText: string | undefined;
  const files: Buffer[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'claim' && typeof part.value === 'string') claimText = part.value;
        continue;
      }
      if (part.fieldname !== 'photos') {
        await part.toBuffer();
        continue;
      }
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw photoError(`Each photo must be at most ${megabytes} MB`);
      if (bytes.length > 0) files.push(bytes);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw photoError(`Each photo must be at most ${megabytes} MB`);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw photoError(`Add at most ${claimPhotoLimits.max} photos`);
    if (code === 'FST_FIELDS_LIMIT') throw new BadRequest('Send the claim once, with its photos');
    throw new BadRequest('The form could not be read. Please try again.');
  }
  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(claimText ?? '');
  } catch {
    throw new BadRequest('Tell us about the problem', { claim: 'Tell us about the problem' });
  }
  const parsed = claimRequestSchema.safeParse(parsedJson);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'claim');
      fieldErrors[field] ??= issue.message;
    }
    throw new BadRequest(Object.values(fieldErrors)[0] ?? 'Check the form', fieldErrors);
  }
  if (files.length < claimPhotoLimits.min) throw photoError('Add at least one photo of the mangoes');
  if (files.length > claimPhotoLimits.max) throw photoError(`Add at most ${claimPhotoLimits.max} photos`);
  return { claim: parsed.data, photos: files };
}

/** Each photo checked by its bytes (a JPEG, PNG or WebP within the pixel limit), then re-encoded. */
async function preparePhotos(files: Buffer[]): Promise<Buffer[]> {
  const notAnImage = 'Each photo must be a JPEG, PNG or WebP image';
  for (const bytes of files) {
    if (!sniffImage(bytes)) throw photoError(notAnImage);
    const size = await uprightSize(bytes).catch(() => {
      throw photoError(notAnImage);
    });
    if (size.width * size.height > maxPicturePixels) throw photoError(`Each photo must be at most ${maxPicturePixels / 1_000_000} megapixels`);
  }
  const prepared: Buffer[] = [];
  for (const bytes of files) {
    prepared.push(
      await claimPhoto(bytes).catch((error: unknown) => {
        if (error instanceof PictureTooLarge) throw photoError(`Each photo must be at most ${maxPicturePixels / 1_000_000} megapixels`);
        if (error instanceof AppError) throw error;
        throw photoError(notAnImage);
      }),
    );
  }
  return prepared;
}

/** Freshness claims: the shopper's side on their order, and the staff's queue. */
export function claimRoutes(deps: { claims: ClaimService; limiter: RateLimiter }): FastifyPluginAsyncZod {
  const { claims, limiter } = deps;
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: maxImageBytes, files: claimPhotoLimits.max + 1, fields: 2, parts: claimPhotoLimits.max + 3, fieldSize: 64 * 1024 },
    });
    app.addHook('onSend', async (_request, reply) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });

    app.get('/api/orders/:number/claims', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request) => claims.forOrder(await requireUser(request), request.params.number));

    /** Reports a problem: counted against the shopper's hourly limit before any photo is read or processed. */
    app.post('/api/orders/:number/claims', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request, reply): Promise<ClaimView> => {
      const user = await requireUser(request);
      await limiter.consume({ key: `claims:${user.id}`, max: claimsPerShopperPerHour, windowMs: 60 * 60 * 1000 }, 'You have sent a lot of claims in a short time. Please try again later.');
      const form = await readClaimForm(request);
      await claims.checkCanClaim(user, request.params.number, form.claim);
      const photos = await preparePhotos(form.photos);
      const claim = await claims.create(user, request.params.number, form.claim, photos, request.id);
      reply.code(201);
      return claim;
    });

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
