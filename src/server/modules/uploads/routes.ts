import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { BadRequest, NotFound } from '../../lib/errors';
import { adminOnly, requireAdmin } from '../auth/request-user';
import { imageKinds, type ImageExtension, maxImageBytes, sniffImage, storedImageName, storeImage } from './images';

const badFile = (message: string) => new BadRequest(message, { file: message });
const tooBig = `The image is larger than ${maxImageBytes / 1024 / 1024} MB`;
const notAnImage = 'Choose a JPEG, PNG or WebP image';

/**
 * Staff upload product, banner and testimonial pictures; they are stored under the data folder
 * and served from /uploads with a year's caching (the name is the content's hash).
 */
export function uploadRoutes(deps: { db: Db; folder: string }): FastifyPluginAsyncZod {
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
      const name = await storeImage(deps.folder, bytes, ext);
      const url = `/uploads/${name}`;
      await recordAudit(deps.db, { actorUserId: admin.id, action: 'upload', entity: 'image', entityId: name, after: { url, bytes: bytes.length, originalName: file.filename }, requestId: request.id });
      return reply.code(201).send({ url });
    });

    app.get('/uploads/:name', { schema: { params: z.object({ name: z.string().max(64) }) } }, async (request, reply) => {
      const { name } = request.params;
      if (!storedImageName.test(name)) throw new NotFound('Image not found');
      const filePath = path.join(deps.folder, name);
      const stat = await fs.promises.stat(filePath).catch(() => undefined);
      if (!stat?.isFile()) throw new NotFound('Image not found');
      const ext = path.extname(name).slice(1) as ImageExtension;
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-length', stat.size)
        .type(imageKinds[ext].type)
        .send(fs.createReadStream(filePath));
    });
  };
}
