import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivePromo, Banner, ContentPage, Testimonial } from '../../../contracts/content';
import type { ApiErrorBody } from '../../../contracts/errors';
import { createTestShop, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const get = (url: string) => shop.app.inject({ method: 'GET', url });

describe('GET /api/testimonials', () => {
  it('answers the seeded testimonials with content, author, rating and imageUrl', async () => {
    const response = await get('/api/testimonials');
    expect(response.statusCode).toBe(200);
    const testimonials = response.json<Testimonial[]>();
    expect(testimonials).toHaveLength(6);
    expect(testimonials[0]).toMatchObject({ author: 'Priya S., Auckland', rating: 5, imageUrl: '/images/testimonials/avatar-1.svg' });
    expect(testimonials[0]!.content).toMatch(/^The Alphonsos tasted exactly like/);
    for (const testimonial of testimonials) {
      expect(Object.keys(testimonial).sort()).toEqual(['author', 'content', 'id', 'image', 'imageUrl', 'rating']);
      expect(testimonial.content.length).toBeGreaterThan(20);
      expect(testimonial.imageUrl === null || testimonial.imageUrl.startsWith('/images/')).toBe(true);
    }
  });

  it('answers ratings in half steps, at most 5', async () => {
    const ratings = (await get('/api/testimonials')).json<Testimonial[]>().map((t) => t.rating);
    expect(ratings).toEqual([5, 5, 5, 4.5, 4, 4.5]);
    expect(ratings.every((r) => Number.isInteger(r * 2) && r > 0 && r <= 5)).toBe(true);
  });

  it('leaves out a testimonial staff have hidden', async () => {
    await shop.database.db.execute(sql`insert into testimonials (content, author, rating_tenths, is_visible, sort_order) values ('Hidden words of praise', 'Hidden H., Napier', 35, false, 99)`);
    const authors = (await get('/api/testimonials')).json<Testimonial[]>().map((t) => t.author);
    expect(authors).not.toContain('Hidden H., Napier');
    expect(authors).toHaveLength(6);
  });
});

describe('GET /api/content/banners/location/:location', () => {
  it('answers the farm gallery in order, each with imageUrl and title', async () => {
    const response = await get('/api/content/banners/location/farm_gallery');
    expect(response.statusCode).toBe(200);
    const banners = response.json<Banner[]>();
    expect(banners.map((b) => b.title)).toEqual([
      'Family Orchards of Ratnagiri and Gir',
      'Hand-Picked at Peak Maturity',
      'Graded and Packed with Care',
      'Delivered Fresh Across New Zealand',
    ]);
    expect(banners[0]).toMatchObject({ imageUrl: '/images/farm/orchard.svg' });
  });

  it('leaves out an inactive banner', async () => {
    await shop.database.db.execute(sql`insert into banners (location, image_url, title, is_active) values ('farm_gallery', '/images/farm/old.svg', 'Retired Banner', false)`);
    const titles = (await get('/api/content/banners/location/farm_gallery')).json<Banner[]>().map((b) => b.title);
    expect(titles).not.toContain('Retired Banner');
  });

  it('answers an empty list for a location with no banners', async () => {
    const response = await get('/api/content/banners/location/home_hero');
    expect(response.statusCode).toBe(200);
    expect(response.json<Banner[]>()).toEqual([]);
  });

  it('answers 400 for a location that cannot exist', async () => {
    const response = await get('/api/content/banners/location/Farm-Gallery!');
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>()).toMatchObject({ message: 'Unknown location' });
  });
});

describe('GET /api/content/pages/:slug', () => {
  it.each([
    ['about-us', 'About Us'],
    ['contact', 'Contact Us'],
    ['shipping-policy', 'Shipping Policy'],
    ['refund-policy', 'Refund Policy'],
    ['terms-conditions', 'Terms & Conditions'],
    ['privacy-policy', 'Privacy Policy'],
    ['mango-season-guide', 'Mango Season Guide'],
  ])('answers the seeded page %s', async (slug, title) => {
    const response = await get(`/api/content/pages/${slug}`);
    expect(response.statusCode).toBe(200);
    const page = response.json<ContentPage>();
    expect(page).toMatchObject({ slug, title });
    expect(page.body.length).toBeGreaterThan(100);
    expect(Number.isNaN(Date.parse(page.updatedAt))).toBe(false);
  });

  it('answers 404 for a page that does not exist', async () => {
    const response = await get('/api/content/pages/no-such-page');
    expect(response.statusCode).toBe(404);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Page not found' });
  });

  it.each(['About_Us', '..%2F..%2Fetc%2Fpasswd', '-about', `${'a'.repeat(81)}`])('answers "Page not found" for the bad slug %s', async (slug) => {
    const response = await get(`/api/content/pages/${slug}`);
    expect([400, 404]).toContain(response.statusCode);
    expect(response.json<ApiErrorBody>().message).toBe('Page not found');
  });
});

describe('GET /api/promo-codes/active', () => {
  const activeCodes = async () => (await get('/api/promo-codes/active')).json<ActivePromo[]>();

  it('answers MANGO10 first: a 10 percent discount', async () => {
    const response = await get('/api/promo-codes/active');
    expect(response.statusCode).toBe(200);
    const [first] = response.json<ActivePromo[]>();
    expect(first).toMatchObject({ id: expect.any(Number), code: 'MANGO10', discountType: 'percentage', discountValue: 10 });
  });

  it('answers a fixed discount in dollars', async () => {
    expect((await activeCodes()).find((p) => p.code === 'FIRSTBOX')).toMatchObject({ discountType: 'fixed', discountValue: 5, minimumOrder: 50 });
  });

  it('lists neither an expired, an inactive, a used-up nor a not-yet-started code, but does list one still running', async () => {
    await shop.database.db.execute(sql`
      insert into promo_codes (code, discount_type, discount_value, is_active, starts_at, ends_at, max_uses, used_count) values
        ('EXPIRED5', 'percentage', 5, true, now() - interval '10 days', now() - interval '1 day', null, 0),
        ('PAUSED5', 'percentage', 5, false, null, null, null, 0),
        ('USEDUP5', 'percentage', 5, true, null, null, 3, 3),
        ('SOON5', 'percentage', 5, true, now() + interval '1 day', now() + interval '5 days', null, 0),
        ('RUNNING5', 'percentage', 5, true, now() - interval '1 day', now() + interval '5 days', 3, 2)`);
    const codes = (await activeCodes()).map((p) => p.code);
    expect(codes[0]).toBe('MANGO10');
    expect(codes).toContain('RUNNING5');
    for (const code of ['EXPIRED5', 'PAUSED5', 'USEDUP5', 'SOON5']) expect(codes).not.toContain(code);
  });
});
