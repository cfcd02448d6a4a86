import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { BadRequest, NotFound } from '../../lib/errors';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { imageName, maxImageBytes, sniffImage, storedImageName } from './images';
import type { ImageStore } from './service';

const badFile = (message: string) => new BadRequest(message, { file: message });
const tooBig = `The image is larger than ${maxImageBytes / 1024 / 1024} MB`;
const notAnImage = 'Choose a JPEG, PNG or WebP image';
const yearOfCaching = 'public, max-age=31536000, immutable';

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
      await deps.images.save({ name, ext, bytes, uploadedBy: admin.id });
      const url = `/uploads/${name}`;
      await recordAudit(deps.db, { actorUserId: admin.id, action: 'upload', entity: 'image', entityId: name, after: { url, bytes: bytes.length, originalName: file.filename }, requestId: request.id });
      return reply.code(201).send({ url });
    });

    app.get('/uploads/:name', { schema: { params: z.object({ name: z.string().max(64) }) } }, async (request, reply) => {
      const { name } = request.params;
      if (!storedImageName.test(name)) throw new NotFound('Image not found');
      const etag = `"${name}"`;
      const ifNoneMatch = request.headers['if-none-match'];
      const notModified = () => reply.code(304).header('cache-control', yearOfCaching).header('etag', etag).send();
      // The name is the content's hash: a browser holding this tag holds these very bytes.
      if (ifNoneMatch && listsTag(ifNoneMatch, etag)) return notModified();
      const image = await deps.images.find(name);
      if (!image) throw new NotFound('Image not found');
      if (ifNoneMatch?.trim() === '*') return notModified();
      return reply
        .header('cache-control', yearOfCaching)
        .header('etag', etag)
        .header('content-length', image.bytes.length)
        .type(image.contentType)
        .send(image.bytes);
    });
  };
}
