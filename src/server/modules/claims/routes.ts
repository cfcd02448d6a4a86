import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminClaimQuerySchema, claimApprovalSchema, claimDeclineSchema, claimPhotoLimits, claimRequestSchema, type ClaimRequest, type ClaimView } from '../../../contracts/claims';
import { idParam } from '../../../contracts/product';
import { AppError, BadRequest, RequestTimeout, TooManyRequests } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { unstorableTextError } from '../../lib/unstorable-text';
import { bodyIdleGuard } from '../../lib/body-idle-guard';
import { RequestSlots } from '../../lib/request-slots';
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

/** How long a claim form may go without sending a byte, and how many may arrive at once. */
export interface ClaimUploadLimits {
  bodyIdleMs: number;
  uploadsAtOnce: number;
}

const uploadsPerShopper = 2;

/** Reads the claim JSON field's text as the claim, or a field-level 400. */
function parseClaim(text: string): ClaimRequest {
  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(text);
  } catch {
    throw new BadRequest('Tell us about the problem', { claim: 'Tell us about the problem' });
  }
  const unstorable = unstorableTextError(parsedJson, 'claim');
  if (unstorable) throw unstorable;
  const parsed = claimRequestSchema.safeParse(parsedJson);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'claim');
      fieldErrors[field] ??= issue.message;
    }
    throw new BadRequest(Object.values(fieldErrors)[0] ?? 'Check the form', fieldErrors);
  }
  return parsed.data;
}

/** A multipart limit or a broken form, as the shopper should hear it. */
function formError(error: unknown): Error {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return photoError(`Each photo must be at most ${megabytes} MB`);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return photoError(`Add at most ${claimPhotoLimits.max} photos`);
  if (code === 'FST_FIELDS_LIMIT') return new BadRequest('Send the claim once, with its photos');
  return new BadRequest('The form could not be read. Please try again.');
}

/**
 * Reads the claim form as it arrives: the claim (a JSON text field named "claim") first, checked
 * against the order before any photo is read, then up to five photo files, each checked and
 * re-encoded as soon as it is in, so only one photo's bytes are held at a time. A body that
 * stops arriving for `idleMs` is given up with a 408.
 */
async function readClaimForm(request: FastifyRequest, idleMs: number, checkClaim: (claim: ClaimRequest) => Promise<void>): Promise<{ claim: ClaimRequest; photos: Buffer[] }> {
  if (!request.isMultipart()) throw new BadRequest('Send the claim as a form with its photos', { photos: 'Add at least one photo' });
  let claim: ClaimRequest | undefined;
  const photos: Buffer[] = [];
  const guard = bodyIdleGuard(request.raw, idleMs, () => new RequestTimeout('Your photos took too long to arrive. Please check your connection and send the claim again.'));
  try {
    const parts = request.parts()[Symbol.asyncIterator]();
    for (let next = await guard.within(parts.next()); !next.done; next = await guard.within(parts.next())) {
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname === 'claim' && typeof part.value === 'string' && !claim) {
          claim = parseClaim(part.value);
          await checkClaim(claim);
        }
        continue;
      }
      if (part.fieldname === 'photos' && !claim) throw new BadRequest('Send the claim before its photos', { claim: 'Tell us about the problem' });
      const bytes = await guard.within(part.toBuffer());
      if (part.fieldname !== 'photos') continue;
      if (part.file.truncated) throw photoError(`Each photo must be at most ${megabytes} MB`);
      if (bytes.length === 0) continue;
      if (photos.length === claimPhotoLimits.max) throw photoError(`Add at most ${claimPhotoLimits.max} photos`);
      photos.push(await preparePhoto(bytes));
    }
  } catch (error) {
    throw formError(error);
  } finally {
    guard.stop();
  }
  if (!claim) throw new BadRequest('Tell us about the problem', { claim: 'Tell us about the problem' });
  if (photos.length < claimPhotoLimits.min) throw photoError('Add at least one photo of the mangoes');
  return { claim, photos };
}

/** A photo checked by its bytes (a JPEG, PNG or WebP within the pixel limit), then re-encoded. */
async function preparePhoto(bytes: Buffer): Promise<Buffer> {
  const notAnImage = 'Each photo must be a JPEG, PNG or WebP image';
  const tooLarge = `Each photo must be at most ${maxPicturePixels / 1_000_000} megapixels`;
  if (!sniffImage(bytes)) throw photoError(notAnImage);
  const size = await uprightSize(bytes).catch(() => {
    throw photoError(notAnImage);
  });
  if (size.width * size.height > maxPicturePixels) throw photoError(tooLarge);
  return claimPhoto(bytes).catch((error: unknown) => {
    if (error instanceof PictureTooLarge) throw photoError(tooLarge);
    if (error instanceof AppError) throw error;
    throw photoError(notAnImage);
  });
}

/** Freshness claims: the shopper's side on their order, and the staff's queue. */
export function claimRoutes(deps: { claims: ClaimService; limiter: RateLimiter; uploads: ClaimUploadLimits }): FastifyPluginAsyncZod {
  const { claims, limiter, uploads } = deps;
  const slots = new RequestSlots({ perAccount: uploadsPerShopper, total: uploads.uploadsAtOnce });
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: maxImageBytes, files: claimPhotoLimits.max + 1, fields: 2, parts: claimPhotoLimits.max + 3, fieldSize: 64 * 1024 },
    });
    app.addHook('onSend', async (_request, reply) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });

    app.get('/api/orders/:number/claims', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request) => claims.forOrder(await requireUser(request), request.params.number));

    /**
     * Reports a problem. Before any of the form is read: counted against the shopper's hourly
     * limit, given one of the upload slots, and the order checked as open for claims. A refusal
     * holds none of the rest of the body.
     */
    app.post('/api/orders/:number/claims', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request, reply): Promise<ClaimView> => {
      const user = await requireUser(request);
      try {
        await limiter.consume({ key: `claims:${user.id}`, max: claimsPerShopperPerHour, windowMs: 60 * 60 * 1000 }, 'You have sent a lot of claims in a short time. Please try again later.');
        const release = slots.take(user.id);
        if (!release) throw new TooManyRequests('Too many photo uploads are arriving at the moment. Please wait a minute and send your claim again.', 60);
        try {
          const order = await claims.claimableOrder(user, request.params.number);
          const form = await readClaimForm(request, uploads.bodyIdleMs, (claim) => claims.checkCanClaim(order, claim));
          const claim = await claims.create(user, order, form.claim, form.photos, request.id);
          reply.code(201);
          return claim;
        } finally {
          release();
        }
      } catch (error) {
        if (!request.raw.complete) {
          // A stalled body is cut off. Otherwise the rest of the body is read and thrown away,
          // so the browser, still sending it, gets the answer rather than a broken connection;
          // REQUEST_TIMEOUT_SECONDS bounds how long that may take.
          if (error instanceof RequestTimeout) reply.header('connection', 'close');
          else {
            request.raw.unpipe();
            request.raw.resume();
          }
        }
        throw error;
      }
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
