import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageInfo } from '../../../contracts/image';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';
import { makeMissingVariants } from './missing-variants';
import { imageName } from './images';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

function multipart(content: Buffer, filename: string) {
  const boundary = 'mango-boundary-42';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
}

const upload = (content: Buffer, filename = 'mango.jpg') => staff({ method: 'POST', url: '/api/admin/uploads', ...multipart(content, filename) });
const get = (url: string, headers: Record<string, string> = {}) => shop.app.inject({ method: 'GET', url, headers });

/** A phone photo: stored sideways with an EXIF orientation (6: turn 90 degrees clockwise) and a camera note. */
async function sidewaysPhoto(width: number, height: number, blue: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 245, g: 158, b: blue } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'MangoCam', Copyright: 'Orchard 42' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

describe('POST /api/admin/uploads makes phone-sized variants', () => {
  let url: string;
  beforeAll(async () => {
    const response = await upload(await sidewaysPhoto(1500, 1000, 1));
    expect(response.statusCode).toBe(201);
    url = response.json<{ url: string }>().url;
  });

  it('serves AVIF and WebP at each standard width the upright picture is wide enough for', async () => {
    for (const width of [320, 640, 960]) {
      for (const [format, type, decoded] of [['avif', 'image/avif', 'heif'], ['webp', 'image/webp', 'webp']] as const) {
        const variant = await get(`${url}/${width}.${format}`);
        expect(variant.statusCode, `${width}.${format}`).toBe(200);
        expect(variant.headers['content-type']).toBe(type);
        expect(variant.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(variant.headers['content-length']).toBe(String(variant.rawPayload.length));
        const meta = await sharp(variant.rawPayload).metadata();
        expect(meta).toMatchObject({ format: decoded, width, height: Math.round((width * 1500) / 1000) });
        expect(meta.exif, 'no camera metadata in a variant').toBeUndefined();
      }
    }
    // Turned upright it is 1000 px wide: no 1280 or 1920 (never upscaled), no other format.
    for (const missing of ['1280.avif', '1920.webp', '1000.avif', '640.gif', '640.png', 'x.webp']) {
      expect((await get(`${url}/${missing}`)).statusCode, missing).toBe(404);
    }
  });

  it('turns the original upright and removes its metadata', async () => {
    const original = await get(url);
    const meta = await sharp(original.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1000, height: 1500 });
    expect(meta.orientation ?? 1).toBe(1);
    expect(meta.exif).toBeUndefined();
  });

  it('answers 304 to a browser holding a variant, and 404 for an unknown picture', async () => {
    const first = await get(`${url}/320.avif`);
    const again = await get(`${url}/320.avif`, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const unknown = await get('/uploads/0123456789abcdef0123456789abcdef.jpg/320.avif', { 'if-none-match': '*' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBeUndefined();
  });

  it('never upscales: a picture narrower than 320 px has one variant at its own width', async () => {
    const { url: small } = (await upload(await sharp({ create: { width: 200, height: 150, channels: 3, background: '#f59e0b' } }).png().toBuffer(), 'small.png')).json<{ url: string }>();
    expect(await sharp((await get(`${small}/200.webp`)).rawPayload).metadata()).toMatchObject({ width: 200, height: 150 });
    expect((await get(`${small}/320.webp`)).statusCode).toBe(404);
  });

  it('refuses a picture over 40 megapixels before decoding it, however small the file', async () => {
    const bomb = await sharp({ create: { width: 9000, height: 5000, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const response = await upload(bomb, 'bomb.png');
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ file: 'The image is larger than 40 megapixels' });
    expect((await get(`/uploads/${imageName(bomb, 'png')}`)).statusCode).toBe(404);
  });

  it('refuses bytes that start like a PNG but are no picture', async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a tiny mango picture')]);
    const response = await upload(fake, 'fake.png');
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ file: 'Choose a JPEG, PNG or WebP image' });
  });
});

describe('the API tells the web app each picture\'s size and widths', () => {
  it('for an uploaded product picture, and for the shop\'s own SVGs', async () => {
    const { url } = (await upload(await sidewaysPhoto(2400, 1800, 2))).json<{ url: string }>();
    const created = await staff({ method: 'POST', url: '/api/products', payload: { name: 'Photo Mangoes', description: 'Mangoes in a real photograph.', price: 30, imageUrl: url, category: 'Classic', stock: 5 } });
    expect(created.statusCode).toBe(201);
    const expected: ImageInfo = { url, width: 1800, height: 2400, widths: [320, 640, 960, 1280] };
    expect(created.json().image).toEqual(expected);
    const products = (await get('/api/products')).json<Array<{ id: number; imageUrl: string; image: ImageInfo | null }>>();
    expect(products.find((p) => p.id === created.json().id)?.image).toEqual(expected);
    const seeded = products.find((p) => p.imageUrl === '/images/products/alphonso.svg');
    expect(seeded?.image).toEqual({ url: '/images/products/alphonso.svg', width: 800, height: 600, widths: [] });
    const banners = (await get('/api/content/banners/location/farm_gallery')).json<Array<{ imageUrl: string; image: ImageInfo }>>();
    for (const banner of banners) expect(banner.image).toEqual({ url: banner.imageUrl, width: 1200, height: 675, widths: [] });
    const testimonials = (await get('/api/testimonials')).json<Array<{ imageUrl: string | null; image: ImageInfo | null }>>();
    for (const t of testimonials) expect(t.image).toEqual(t.imageUrl ? { url: t.imageUrl, width: 160, height: 160, widths: [] } : null);
  });

  it('for a picture stored before variants existed, once the start-up work has made them', async () => {
    const old = await sharp({ create: { width: 700, height: 500, channels: 3, background: '#15803d' } }).jpeg().toBuffer();
    const name = imageName(old, 'jpg');
    await shop.app.services.images.save({ name, ext: 'jpg', bytes: old, uploadedBy: null });
    const url = `/uploads/${name}`;
    const created = await staff({ method: 'POST', url: '/api/products', payload: { name: 'Old Photo Mangoes', description: 'A picture from before variants.', price: 30, imageUrl: url, category: 'Classic', stock: 5 } });
    expect(created.json().image, 'unknown until its variants are made').toBeNull();
    expect((await get(`${url}/640.avif`)).statusCode).toBe(404);

    expect(await makeMissingVariants(shop.app.services.images, new AbortController().signal)).toBeGreaterThanOrEqual(1);
    await shop.app.services.bus.publish('products');
    const product = (await get(`/api/products/${created.json().id}`)).json<{ image: ImageInfo }>();
    expect(product.image).toEqual({ url, width: 700, height: 500, widths: [320, 640] });
    expect((await get(`${url}/640.avif`)).statusCode).toBe(200);
    expect(await makeMissingVariants(shop.app.services.images, new AbortController().signal), 'each picture once').toBe(0);
  });
});
