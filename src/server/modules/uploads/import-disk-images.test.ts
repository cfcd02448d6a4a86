import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createTestShop, type TestShop } from '../../testing/test-app';
import { importDiskImages } from './import-disk-images';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('a mango on the old disk')]);
/** How earlier versions named a stored picture: the first 32 hex digits of its SHA-256. */
const oldName = (bytes: Buffer, ext: string) => `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${ext}`;

describe('images earlier versions stored in DATA_DIR/uploads', () => {
  it('are imported into the database at start, each once, and keep their addresses', async () => {
    const folder = path.join(shop.config.dataDir, 'uploads');
    await fs.mkdir(folder, { recursive: true });
    const name = oldName(jpeg, 'jpg');
    await fs.writeFile(path.join(folder, name), jpeg);
    // A write an old process never finished, a file that is no picture, and a stray folder.
    await fs.writeFile(path.join(folder, `${name}.123.456.part`), jpeg.subarray(0, 5));
    await fs.writeFile(path.join(folder, oldName(Buffer.from('<svg/>'), 'png')), '<svg/>');
    await fs.mkdir(path.join(folder, 'thumbs'));

    expect((await shop.app.inject({ method: 'GET', url: `/uploads/${name}` })).statusCode).toBe(404);
    const first = await importDiskImages(shop.database.db, folder);
    expect(first).toEqual({ imported: 1, refused: [oldName(Buffer.from('<svg/>'), 'png')] });

    const image = await shop.app.inject({ method: 'GET', url: `/uploads/${name}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.rawPayload.equals(jpeg)).toBe(true);
    const rows = await queryRows<{ uploaded_by: number | null }>(shop.database.db, sql`select uploaded_by from uploaded_images where name = ${name}`);
    expect(rows).toEqual([{ uploaded_by: null }]);

    const again = await importDiskImages(shop.database.db, folder);
    expect(again.imported).toBe(0);
    expect(await fs.readFile(path.join(folder, name)), 'the old files are left for the operator to remove').toEqual(jpeg);
  });

  it('does nothing when there is no uploads folder', async () => {
    expect(await importDiskImages(shop.database.db, path.join(shop.config.dataDir, 'no-such-folder'))).toEqual({ imported: 0, refused: [] });
  });
});
