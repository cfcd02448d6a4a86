import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { queryRows } from '../../db/client';
import { MemoryMailer } from '../../lib/mail';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
let adminId: number;
let png: Buffer;
let webp: Buffer;
/** A small real picture; `seed` makes each one different bytes. */
const picture = (seed: number) => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 245, g: 158, b: seed } } });
beforeAll(async () => {
  ({ shop, staff, adminId } = await openStaffShop());
  png = await picture(11).png().toBuffer();
  webp = await picture(12).webp().toBuffer();
});
afterAll(async () => shop?.close());

function multipart(content: Buffer, filename: string, type: string) {
  const boundary = 'mango-boundary-42';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
}

const upload = (content: Buffer, filename = 'mango.png', type = 'image/png') =>
  staff({ method: 'POST', url: '/api/admin/uploads', ...multipart(content, filename, type) });

describe('image uploads', () => {
  it('stores a PNG in the database and serves it with a year of caching', async () => {
    const response = await upload(png);
    expect(response.statusCode).toBe(201);
    const { url } = response.json<{ url: string }>();
    expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    const image = await shop.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.headers['content-length']).toBe(String(image.rawPayload.length));
    expect(image.headers.etag).toMatch(/^"[a-f0-9]{32}\.png"$/);
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'png', width: 40, height: 30 });
    const name = url.slice('/uploads/'.length);
    const [row] = await queryRows<{ name: string; content_type: string; byte_size: number; uploaded_by: number | null; created_at: unknown }>(
      shop.database.db,
      sql`select name, content_type, byte_size, uploaded_by, created_at from uploaded_images where name = ${name}`,
    );
    expect(row).toMatchObject({ name, content_type: 'image/png', byte_size: image.rawPayload.length, uploaded_by: adminId });
    expect(row!.created_at).toBeTruthy();
    const files = await fs.readdir(path.join(shop.config.dataDir, 'uploads')).catch(() => []);
    expect(files, 'nothing is written to this host\'s disk').toEqual([]);
    const [audit] = await queryRows<{ action: string; entity: string }>(shop.database.db, sql`select action, entity from audit_log where entity = 'image' order by id desc limit 1`);
    expect(audit).toEqual({ action: 'upload', entity: 'image' });
  });

  it('keeps the same picture uploaded twice as one row under one address', async () => {
    const twice = await picture(13).png().toBuffer();
    const first = await upload(twice, 'first.png');
    const second = await upload(twice, 'second.png');
    expect(second.statusCode).toBe(201);
    expect(second.json().url).toBe(first.json().url);
    const name = first.json<{ url: string }>().url.slice('/uploads/'.length);
    const rows = await queryRows<{ count: number }>(shop.database.db, sql`select count(*)::int as count from uploaded_images where name = ${name}`);
    expect(rows).toEqual([{ count: 1 }]);
  });

  it('serves an image uploaded through one process from every other process on the same database', async () => {
    // A second host behind the load balancer: same database, its own data folder.
    const otherDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mango-shop-other-host-'));
    let otherHost: FastifyInstance | undefined;
    try {
      otherHost = await buildApp({ config: { ...shop.config, dataDir: otherDataDir }, database: shop.database, mailTransport: new MemoryMailer() });
      await otherHost.ready();
      const { url } = (await upload(await picture(14).png().toBuffer())).json<{ url: string }>();
      const stored = await shop.app.inject({ method: 'GET', url });
      const image = await otherHost.inject({ method: 'GET', url });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(image.headers['content-length']).toBe(String(stored.rawPayload.length));
      expect(image.rawPayload.equals(stored.rawPayload)).toBe(true);
      expect((await otherHost.inject({ method: 'GET', url: `${url}/40.avif` })).statusCode).toBe(200);
    } finally {
      await otherHost?.close();
      await fs.rm(otherDataDir, { recursive: true, force: true });
    }
  });

  it('answers 304 with no body to a browser that already holds the picture', async () => {
    const { url } = (await upload(webp, 'again.webp', 'image/webp')).json<{ url: string }>();
    const first = await shop.app.inject({ method: 'GET', url });
    const { etag } = first.headers;
    expect(etag).toBeTruthy();
    for (const ifNoneMatch of [String(etag), `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await shop.app.inject({ method: 'GET', url, headers: { 'if-none-match': ifNoneMatch } });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const changed = await shop.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"0123456789abcdef0123456789abcdef.webp"' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('knows the file by its bytes, not its name or declared type', async () => {
    const asJpeg = await upload(webp, 'holiday.jpg', 'image/jpeg');
    expect(asJpeg.statusCode).toBe(201);
    expect(asJpeg.json().url).toMatch(/\.webp$/);
    const disguised = await upload(Buffer.from('<svg onload="alert(1)"></svg>'), 'mango.png', 'image/png');
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json()).toMatchObject({ message: 'Choose a JPEG, PNG or WebP image', fieldErrors: { file: 'Choose a JPEG, PNG or WebP image' } });
  });

  it('refuses a file over 5 MB, an empty form and a JSON body with a clear message', async () => {
    const huge = await upload(Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]));
    expect(huge.statusCode).toBe(400);
    expect(huge.json().fieldErrors).toEqual({ file: 'The image is larger than 5 MB' });
    const boundary = 'b';
    const empty = await staff({ method: 'POST', url: '/api/admin/uploads', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: `--${boundary}--\r\n` });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors).toEqual({ file: 'Choose an image to upload' });
    const json = await staff({ method: 'POST', url: '/api/admin/uploads', payload: { url: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().fieldErrors).toEqual({ file: 'Send the image as a file upload' });
  });

  it('answers 404 for unknown or malformed names, and never caches that answer', async () => {
    for (const url of ['/uploads/0123456789abcdef0123456789abcdef.png', '/uploads/..%2F..%2Fetc%2Fpasswd', '/uploads/x.svg']) {
      const response = await shop.app.inject({ method: 'GET', url, headers: { 'if-none-match': '*' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['cache-control'], url).toBeUndefined();
      expect(response.headers.etag, url).toBeUndefined();
    }
  });

  it('is staff only', async () => {
    const visitor = await shop.app.inject({ method: 'POST', url: '/api/admin/uploads', ...multipart(png, 'a.png', 'image/png') });
    expect(visitor.statusCode).toBe(401);
  });
});
