import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../lib/rate-limit';
import type { RequestSlots } from '../../lib/request-slots';
import type { UserRow } from '../auth/user-view';
import type { z } from 'zod';
import { bodyIdleGuard } from '../../lib/body-idle-guard';
import { AppError, BadRequest, RequestTimeout, TooManyRequests } from '../../lib/errors';
import { unstorableTextError } from '../../lib/unstorable-text';
import { maxImageBytes, sniffImage } from './images';
import { claimPhoto, maxPicturePixels, PictureTooLarge, uprightSize } from './picture-processing';

/**
 * A shopper's form of one JSON text field and a few photos (a freshness claim, a review): read as
 * it arrives, the field first and checked before any photo is read, then each photo checked and
 * re-encoded as soon as it is in, so only one photo's bytes are held at a time.
 */
export interface PhotoForm<T> {
  /** The JSON field's name ("claim", "review"), also how the form is named to the shopper. */
  field: string;
  schema: z.ZodType<T>;
  /** What a missing or unreadable field reads (under the field's name). */
  missing: string;
  /** The field errors of a request that is not a form at all. */
  notAForm: Record<string, string>;
  /** Asked with the parsed field before any photo is read; throws the refusal. */
  check?: (value: T) => Promise<void>;
  photos: { min: number; max: number };
  /** What too few photos read (when `photos.min` is above 0). */
  tooFew?: string;
  /** What a form that stops arriving reads. */
  stalled: string;
}

const megabytes = maxImageBytes / 1024 / 1024;

export const photoError = (message: string) => new BadRequest(message, { photos: message });

/** Multipart limits for a form of one field and at most `maxPhotos` photos. */
export function photoFormLimits(maxPhotos: number) {
  return { fileSize: maxImageBytes, files: maxPhotos + 1, fields: 2, parts: maxPhotos + 3, fieldSize: 64 * 1024 };
}

/** Reads the field's text against its schema, or a field-level 400. */
function parseField<T>(text: string, form: PhotoForm<T>): T {
  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(text);
  } catch {
    throw new BadRequest(form.missing, { [form.field]: form.missing });
  }
  const unstorable = unstorableTextError(parsedJson, form.field);
  if (unstorable) throw unstorable;
  const parsed = form.schema.safeParse(parsedJson);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? form.field);
      fieldErrors[field] ??= issue.message;
    }
    throw new BadRequest(Object.values(fieldErrors)[0] ?? 'Check the form', fieldErrors);
  }
  return parsed.data;
}

/** A multipart limit or a broken form, as the shopper should hear it. */
function formError(error: unknown, field: string, maxPhotos: number): Error {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return photoError(`Each photo must be at most ${megabytes} MB`);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return photoError(`Add at most ${maxPhotos} photos`);
  if (code === 'FST_FIELDS_LIMIT') return new BadRequest(`Send the ${field} once, with its photos`);
  return new BadRequest('The form could not be read. Please try again.');
}

/** Reads the form; a body that stops arriving for `idleMs` is given up with a 408. */
export async function readPhotoForm<T>(request: FastifyRequest, idleMs: number, form: PhotoForm<T>): Promise<{ value: T; photos: Buffer[] }> {
  if (!request.isMultipart()) throw new BadRequest(`Send the ${form.field} as a form with its photos`, form.notAForm);
  let value: T | undefined;
  let read = false;
  const photos: Buffer[] = [];
  const guard = bodyIdleGuard(request.raw, idleMs, () => new RequestTimeout(form.stalled));
  try {
    const parts = request.parts()[Symbol.asyncIterator]();
    for (let next = await guard.within(parts.next()); !next.done; next = await guard.within(parts.next())) {
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname === form.field && typeof part.value === 'string' && !read) {
          value = parseField(part.value, form);
          read = true;
          await form.check?.(value);
        }
        continue;
      }
      if (part.fieldname === 'photos' && !read) throw new BadRequest(`Send the ${form.field} before its photos`, { [form.field]: form.missing });
      const bytes = await guard.within(part.toBuffer());
      if (part.fieldname !== 'photos') continue;
      if (part.file.truncated) throw photoError(`Each photo must be at most ${megabytes} MB`);
      if (bytes.length === 0) continue;
      if (photos.length === form.photos.max) throw photoError(`Add at most ${form.photos.max} photos`);
      photos.push(await preparePhoto(bytes));
    }
  } catch (error) {
    throw formError(error, form.field, form.photos.max);
  } finally {
    guard.stop();
  }
  if (!read) throw new BadRequest(form.missing, { [form.field]: form.missing });
  if (photos.length < form.photos.min) throw photoError(form.tooFew ?? `Add at least ${form.photos.min} photos`);
  return { value: value as T, photos };
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

/**
 * How long a photo form (a claim, a review) may go without sending a byte, and the slots that
 * bound how many arrive at once, per shopper and in all: claims and reviews share them.
 */
export interface PhotoUploads {
  bodyIdleMs: number;
  slots: RequestSlots;
}

/** Photo forms one shopper may be sending at once. */
export const uploadsPerShopper = 2;

/**
 * A shopper's photo form from its first check to its answer. Before any of the body is read: who
 * sends it (`shopper` throws the refusal), their hourly limit, and an upload slot; then `work`
 * (its own checks, then readPhotoForm). Whatever refuses it, the rest of the body is settled
 * (settleUnreadBody), so the browser still sending it hears the answer.
 */
export async function photoUpload<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  uploads: PhotoUploads,
  upload: { noun: string; shopper: () => Promise<UserRow>; limiter: RateLimiter; perHour: number },
  work: (shopper: UserRow) => Promise<T>,
): Promise<T> {
  try {
    const shopper = await upload.shopper();
    await upload.limiter.consume({ key: `${upload.noun}s:${shopper.id}`, max: upload.perHour, windowMs: 60 * 60 * 1000 }, `You have sent a lot of ${upload.noun}s in a short time. Please try again later.`);
    const release = uploads.slots.take(shopper.id);
    if (!release) throw new TooManyRequests(`Too many photo uploads are arriving at the moment. Please wait a minute and send your ${upload.noun} again.`, 60);
    try {
      return await work(shopper);
    } finally {
      release();
    }
  } catch (error) {
    settleUnreadBody(request, reply, error);
    throw error;
  }
}

/**
 * After a refusal of a form still arriving: a stalled body is cut off; otherwise the rest is read
 * and thrown away, so the browser, still sending it, gets the answer rather than a broken
 * connection (REQUEST_TIMEOUT_SECONDS bounds how long that may take).
 */
function settleUnreadBody(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (request.raw.complete) return;
  if (error instanceof RequestTimeout) reply.header('connection', 'close');
  else {
    request.raw.unpipe();
    request.raw.resume();
  }
}
