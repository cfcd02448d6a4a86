import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../contracts/product';
import { contentPages, products } from '../../db/schema';
import { createTestShop, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let behindPublicUrl: TestShop;
beforeAll(async () => {
  [shop, behindPublicUrl] = await Promise.all([createTestShop(), createTestShop({ PUBLIC_URL: 'https://mangoshop.example.nz/' })]);
});
afterAll(async () => Promise.all([shop?.close(), behindPublicUrl?.close()]));

/** The sitemap's entries: address and last-modified date. */
function entries(xml: string): Array<{ loc: string; lastmod: string | undefined }> {
  return [...xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/url>/g)].map((m) => ({ loc: m[1]!, lastmod: m[2] }));
}

describe('GET /robots.txt', () => {
  it('lets crawlers in, keeps them out of accounts, checkout and admin, and names the sitemap', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'shop.test:8080' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/admin', '/account', '/cart', '/checkout', '/success', '/reset-password', '/api/']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines.some((line) => /^Disallow: \/(shop|product|about)?$/.test(line))).toBe(false);
    expect(lines).toContain('Sitemap: http://shop.test:8080/sitemap.xml');
  });

  it('uses PUBLIC_URL for the sitemap address when it is set', async () => {
    const response = await behindPublicUrl.app.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'internal:3000' } });
    expect(response.body).toContain('Sitemap: https://mangoshop.example.nz/sitemap.xml');
  });
});

describe('GET /sitemap.xml', () => {
  it('lists the home page, the shop, every visible product and every content page, with last-modified dates', async () => {
    const [hidden] = await shop.database.db.update(products).set({ isHidden: true }).where(eq(products.id, 2)).returning();
    await shop.database.db.insert(contentPages).values({ slug: 'harvest-notes', title: 'Harvest notes', body: 'From the orchard.' });
    const response = await shop.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'shop.test' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);

    const listed = entries(response.body);
    const locs = listed.map((entry) => entry.loc);
    const visible = (await shop.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>();
    expect(visible.length).toBeGreaterThan(5);
    expect(locs.slice(0, 2)).toEqual(['http://shop.test/', 'http://shop.test/shop']);
    for (const product of visible) expect(locs).toContain(`http://shop.test/product/${product.id}`);
    expect(locs).not.toContain(`http://shop.test/product/${hidden!.id}`);
    expect(locs.filter((loc) => loc.includes('/product/'))).toHaveLength(visible.length);
    // Content pages at the routes the shop shows them on.
    expect(locs).toContain('http://shop.test/about');
    expect(locs).toContain('http://shop.test/shipping-policy');
    expect(locs).toContain('http://shop.test/content/harvest-notes');
    expect(locs).not.toContain('http://shop.test/content/about-us');
    // Every entry has a W3C date, and a product's is when it last changed.
    for (const entry of listed) expect(entry.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const [first] = await shop.database.db.select().from(products).where(eq(products.id, visible[0]!.id));
    expect(listed.find((entry) => entry.loc === `http://shop.test/product/${first!.id}`)!.lastmod).toBe(first!.updatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });

  it('gives absolute addresses on PUBLIC_URL', async () => {
    const response = await behindPublicUrl.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'internal:3000' } });
    const locs = entries(response.body).map((entry) => entry.loc);
    expect(locs.length).toBeGreaterThan(10);
    expect(locs.every((loc) => loc.startsWith('https://mangoshop.example.nz/'))).toBe(true);
  });
});
