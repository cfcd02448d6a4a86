import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a tiny mango picture')]);
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(16, 7)]);

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
  it('stores a PNG under the data folder and serves it with a year of caching', async () => {
    const response = await upload(png);
    expect(response.statusCode).toBe(201);
    const { url } = response.json<{ url: string }>();
    expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    const image = await shop.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.rawPayload.equals(png)).toBe(true);
    const [audit] = await queryRows<{ action: string; entity: string }>(shop.database.db, sql`select action, entity from audit_log where entity = 'image' order by id desc limit 1`);
    expect(audit).toEqual({ action: 'upload', entity: 'image' });
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

  it('answers 404 for unknown or malformed names, never reading outside the folder', async () => {
    for (const url of ['/uploads/0123456789abcdef0123456789abcdef.png', '/uploads/..%2F..%2Fetc%2Fpasswd', '/uploads/x.svg']) {
      expect((await shop.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });

  it('is staff only', async () => {
    const visitor = await shop.app.inject({ method: 'POST', url: '/api/admin/uploads', ...multipart(png, 'a.png', 'image/png') });
    expect(visitor.statusCode).toBe(401);
  });
});
