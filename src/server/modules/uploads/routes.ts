import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { AppError, BadRequest, NotFound } from '../../lib/errors';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { variantFormats } from '../../../contracts/image';
import { imageName, maxImageBytes, sniffImage, storedImageName } from './images';
import { maxPicturePixels, PictureTooLarge, processPicture, uprightSize } from './picture-processing';
import type { ImageStore, StoredImage } from './service';

const badFile = (message: string) => new BadRequest(message, { file: message });
const tooBig = `The image is larger than ${maxImageBytes / 1024 / 1024} MB`;
const notAnImage = 'Choose a JPEG, PNG or WebP image';
const tooManyPixels = `The image is larger than ${maxPicturePixels / 1_000_000} megapixels`;
const yearOfCaching = 'public, max-age=31536000, immutable';
const variantFile = new RegExp(`^(\\d{1,5})\\.(${variantFormats.join('|')})$`);

/** Whether an If-None-Match header lists this entity tag (weak or strong, as RFC 9110 compares). */
function listsTag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Staff upload product, banner and testimonial pictures; they are stored in the database and
 * served from /uploads by every process with a year's caching (the name is the content's hash).
 */
export function uploadRoutes(deps: { db: Db; images: ImageStore }): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, { limits: { fileSize: maxImageBytes, files: 1, fields: 0, parts: 1 } });

    app.post('/api/admin/uploads', { onRequest: adminOnly }, async (request, reply) => {
      const admin = await requireAdmin(request);
      if (!request.isMultipart()) throw badFile('Send the image as a file upload');
      const file = await request.file().catch(() => undefined);
      if (!file) throw badFile('Choose an image to upload');
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch {
        throw badFile(tooBig);
      }
      if (file.file.truncated) throw badFile(tooBig);
      const ext = sniffImage(bytes);
      if (!ext) throw badFile(notAnImage);
      const name = imageName(bytes, ext);
      const size = await uprightSize(bytes).catch(() => {
        throw badFile(notAnImage);
      });
      // Counted from the header before anything is decoded: a small file can hide a huge picture.
      if (size.width * size.height > maxPicturePixels) throw badFile(tooManyPixels);
      const [stored] = await deps.images.sizes([name]);
      // Answered only once the variants exist, so the editor's preview and the shop can use them at once.
      if (!stored?.variantWidths) {
        const picture = await processPicture(bytes, ext).catch((error: unknown) => {
          if (error instanceof PictureTooLarge) throw badFile(tooManyPixels);
          if (error instanceof Error && !(error instanceof AppError)) throw badFile(notAnImage);
          throw error;
        });
        await deps.images.save({ name, ext, bytes: picture.normalised, uploadedBy: admin.id });
        await deps.images.saveVariants(name, picture, picture.variants);
      }
      const url = `/uploads/${name}`;
      await recordAudit(deps.db, { actorUserId: admin.id, action: 'upload', entity: 'image', entityId: name, after: { url, bytes: bytes.length, originalName: file.filename }, requestId: request.id });
      return reply.code(201).send({ url });
    });

    app.get('/uploads/:name', { schema: { params: z.object({ name: z.string().max(64) }) } }, async (request, reply) => {
      const { name } = request.params;
      if (!storedImageName.test(name)) throw new NotFound('Image not found');
      return serveImmutable(request.headers['if-none-match'], reply, `"${name}"`, () => deps.images.find(name));
    });

    app.get('/uploads/:name/:file', { schema: { params: z.object({ name: z.string().max(64), file: z.string().max(16) }) } }, async (request, reply) => {
      const { name, file } = request.params;
      const variant = variantFile.exec(file);
      if (!storedImageName.test(name) || !variant) throw new NotFound('Image not found');
      const [, width, format] = variant as unknown as [string, string, (typeof variantFormats)[number]];
      return serveImmutable(request.headers['if-none-match'], reply, `"${name}/${file}"`, () => deps.images.findVariant(name, Number(width), format));
    });
  };
}

/** A picture whose address names its content: cached for a year, and 304 for a browser holding it. */
async function serveImmutable(ifNoneMatch: string | undefined, reply: FastifyReply, etag: string, find: () => Promise<StoredImage | undefined>) {
  const notModified = () => reply.code(304).header('cache-control', yearOfCaching).header('etag', etag).send();
  // The name is the content's hash: a browser holding this tag holds these very bytes.
  if (ifNoneMatch && listsTag(ifNoneMatch, etag)) return notModified();
  const image = await find();
  if (!image) throw new NotFound('Image not found');
  if (ifNoneMatch?.trim() === '*') return notModified();
  return reply
    .header('cache-control', yearOfCaching)
    .header('etag', etag)
    .header('content-length', image.bytes.length)
    .type(image.contentType)
    .send(image.bytes);
}
