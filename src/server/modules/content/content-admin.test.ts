import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Banner, ContentPage, Testimonial } from '../../../contracts/content';
import type { AdminBanner, AdminPage, AdminPageSummary, AdminTestimonial } from '../../../contracts/content-admin';
import type { ApiErrorBody } from '../../../contracts/errors';
import { queryRows } from '../../db/client';
import { as, createTestShop, registerAndSignIn, signInAdmin, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: ReturnType<typeof as>;
let customer: string;
let adminId: number;
beforeAll(async () => {
  shop = await createTestShop();
  customer = (await registerAndSignIn(shop.app)).cookie;
  const admin = await signInAdmin(shop);
  staff = as(shop.app, admin.cookie);
  adminId = admin.user.id;
});
afterAll(async () => shop?.close());

const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => staff({ method, url, ...(payload !== undefined && { payload: payload as Record<string, unknown> }) });
const staffList = async <T>(url: string) => (await staff({ method: 'GET', url })).json<T[]>();
const publicGet = (url: string) => shop.app.inject({ method: 'GET', url });
const publicTestimonials = async () => (await publicGet('/api/testimonials')).json<Testimonial[]>();
const publicBanners = async () => (await publicGet('/api/content/banners/location/farm_gallery')).json<Banner[]>();

interface AuditRow extends Record<string, unknown> {
  action: string;
  entity_id: string | null;
  actor_user_id: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
}
const auditOf = (entity: string) => queryRows<AuditRow>(shop.database.db, sql`select * from audit_log where entity = ${entity} order by id`);

/** The table's rows and the audit log, to prove a refused write changed nothing. */
const snapshot = async (table: 'testimonials' | 'banners' | 'content_pages') => ({
  rows: await queryRows(shop.database.db, sql`select * from ${sql.identifier(table)} order by 1`),
  audits: (await queryRows(shop.database.db, sql`select id from audit_log`)).length,
});

describe('who may use the content admin', () => {
  it.each([
    ['GET', '/api/admin/testimonials'],
    ['PUT', '/api/admin/testimonials/order'],
    ['DELETE', '/api/admin/testimonials/1'],
    ['POST', '/api/admin/content/banners'],
    ['PUT', '/api/admin/content/pages/about-us'],
    ['DELETE', '/api/admin/content/pages/about-us'],
  ] as const)('%s %s asks a visitor to sign in and refuses a customer', async (method, url) => {
    expect((await shop.app.inject({ method, url, payload: { title: 'x' } })).statusCode).toBe(401);
    const refused = await as(shop.app, customer)({ method, url, payload: { title: 'x' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ApiErrorBody>()).toEqual({ message: 'This needs an admin account.' });
  });

  it('answers staff with no-store', async () => {
    expect((await staff({ method: 'GET', url: '/api/admin/content/pages' })).headers['cache-control']).toBe('no-store');
  });
});

describe('testimonials', () => {
  const newOne = { content: 'The Kesar box arrived cold and perfectly ripe.', author: 'Mere T., Hamilton', rating: 4.5 };

  it('lists every testimonial in its order, hidden ones too', async () => {
    await shop.database.db.execute(sql`insert into testimonials (content, author, rating_tenths, is_visible, sort_order) values ('Quiet praise kept back for now', 'Hidden H., Napier', 35, false, 99)`);
    const list = await staffList<AdminTestimonial>('/api/admin/testimonials');
    expect(list.map((t) => [t.author, t.rating, t.isVisible]).slice(0, 1)).toEqual([['Priya S., Auckland', 5, true]]);
    expect(list.at(-1)).toMatchObject({ author: 'Hidden H., Napier', rating: 3.5, isVisible: false, imageUrl: null });
    expect(list).toHaveLength(7);
  });

  it('creates one at the end of the list, shows it on the storefront and audits it', async () => {
    const response = await send('POST', '/api/admin/testimonials', newOne);
    expect(response.statusCode).toBe(201);
    const created = response.json<AdminTestimonial>();
    expect(created).toEqual({ ...newOne, id: created.id, imageUrl: null, isVisible: true, updatedAt: created.updatedAt });
    expect((await publicTestimonials()).at(-1)).toEqual({ id: created.id, ...newOne, imageUrl: null, image: null });
    expect((await staffList<AdminTestimonial>('/api/admin/testimonials')).at(-1)!.id).toBe(created.id);
    const [audit] = await auditOf('testimonial');
    expect(audit).toMatchObject({ action: 'testimonial.create', entity_id: String(created.id), actor_user_id: adminId, before: null });
    expect(audit!.after).toMatchObject({ author: 'Mere T., Hamilton', ratingTenths: 45 });
    expect(audit!.request_id).toBe(response.headers['x-request-id']);
  });

  it.each([
    ['a rating off the half steps', { ...newOne, rating: 4.3 }, { rating: 'Rating must be in half steps, like 4 or 4.5' }],
    ['a rating of 0', { ...newOne, rating: 0 }, { rating: 'Rating must be between 0.5 and 5' }],
    ['a rating over 5', { ...newOne, rating: 5.5 }, { rating: 'Rating must be between 0.5 and 5' }],
    ['a rating sent as text', { ...newOne, rating: '5' }, { rating: 'Rating must be a number' }],
    ['too short a text and a blank author', { ...newOne, content: 'Yum', author: ' ' }, { content: 'Testimonial text must be at least 10 characters', author: 'Author is required' }],
    ['too long a text', { ...newOne, content: 'x'.repeat(1001) }, { content: 'Testimonial text must be at most 1000 characters' }],
    ['a javascript: image', { ...newOne, imageUrl: 'javascript:alert(1)' }, { imageUrl: 'Image URL must be a shop path like /uploads/...: upload the picture' }],
    ['a protocol-relative image', { ...newOne, imageUrl: '//evil.example/a.png' }, { imageUrl: 'Image URL must be a shop path like /uploads/...: upload the picture' }],
    ['an unknown field', { ...newOne, isAdmin: true }, { isAdmin: 'Unknown field: isAdmin' }],
  ])('refuses %s with field messages and changes nothing', async (_case, body, fieldErrors) => {
    const before = await snapshot('testimonials');
    const response = await send('POST', '/api/admin/testimonials', body);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual(fieldErrors);
    expect(await snapshot('testimonials')).toEqual(before);
  });

  it('edits the text, author, rating and image, and refuses a bad edit without changing anything', async () => {
    const [first] = await staffList<AdminTestimonial>('/api/admin/testimonials');
    const response = await send('PUT', `/api/admin/testimonials/${first!.id}`, { rating: 3.5, author: 'Priya S., Tauranga', imageUrl: '/uploads/priya.webp' });
    expect(response.statusCode).toBe(200);
    expect(response.json<AdminTestimonial>()).toMatchObject({ id: first!.id, rating: 3.5, author: 'Priya S., Tauranga', imageUrl: '/uploads/priya.webp', content: first!.content });
    expect((await publicTestimonials())[0]).toMatchObject({ rating: 3.5, author: 'Priya S., Tauranga' });
    const audit = (await auditOf('testimonial')).at(-1)!;
    expect([audit.action, audit.before?.ratingTenths, audit.after?.ratingTenths]).toEqual(['testimonial.update', 50, 35]);

    const before = await snapshot('testimonials');
    const bad = await send('PUT', `/api/admin/testimonials/${first!.id}`, { rating: 6, imageUrl: 'data:image/png;base64,AAAA' });
    expect(bad.json<ApiErrorBody>().fieldErrors).toEqual({ rating: 'Rating must be between 0.5 and 5', imageUrl: 'Image URL must be a shop path like /uploads/...: upload the picture' });
    expect((await send('PUT', `/api/admin/testimonials/${first!.id}`, {})).json<ApiErrorBody>()).toEqual({ message: 'Send at least one field to change', fieldErrors: { body: 'Send at least one field to change' } });
    expect((await send('PUT', '/api/admin/testimonials/99999', { rating: 4 })).statusCode).toBe(404);
    expect(await snapshot('testimonials')).toEqual(before);
  });

  it('hides a testimonial from the storefront at once and shows it again', async () => {
    const [first] = await staffList<AdminTestimonial>('/api/admin/testimonials');
    expect((await send('PUT', `/api/admin/testimonials/${first!.id}`, { isVisible: false })).json<AdminTestimonial>().isVisible).toBe(false);
    expect((await publicTestimonials()).map((t) => t.id)).not.toContain(first!.id);
    expect((await staffList<AdminTestimonial>('/api/admin/testimonials'))[0]).toMatchObject({ id: first!.id, isVisible: false });
    await send('PUT', `/api/admin/testimonials/${first!.id}`, { isVisible: true });
    expect((await publicTestimonials())[0]!.id).toBe(first!.id);
    expect((await auditOf('testimonial')).slice(-2).map((a) => a.action)).toEqual(['testimonial.hide', 'testimonial.show']);
  });

  it('saves a new order in one request, and refuses a stale or broken one', async () => {
    const ids = (await staffList<AdminTestimonial>('/api/admin/testimonials')).map((t) => t.id);
    const reversed = [...ids].reverse();
    const response = await send('PUT', '/api/admin/testimonials/order', { ids: reversed });
    expect(response.statusCode).toBe(200);
    expect(response.json<AdminTestimonial[]>().map((t) => t.id)).toEqual(reversed);
    const hiddenId = response.json<AdminTestimonial[]>().find((t) => !t.isVisible)!.id;
    expect((await publicTestimonials()).map((t) => t.id)).toEqual(reversed.filter((id) => id !== hiddenId));
    expect((await auditOf('testimonial')).at(-1)).toMatchObject({ action: 'testimonial.reorder', entity_id: null, before: { ids }, after: { ids: reversed } });

    const before = await snapshot('testimonials');
    const stale = await send('PUT', '/api/admin/testimonials/order', { ids: reversed.slice(1) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ApiErrorBody>().message).toBe('The testimonials changed while you were ordering them. Reload the list and try again.');
    expect((await send('PUT', '/api/admin/testimonials/order', { ids: [...reversed.slice(1), 99999] })).statusCode).toBe(409);
    expect((await send('PUT', '/api/admin/testimonials/order', { ids: [ids[0], ids[0]] })).json<ApiErrorBody>().fieldErrors).toEqual({ ids: 'Each item may appear only once' });
    expect((await send('PUT', '/api/admin/testimonials/order', { ids: [] })).json<ApiErrorBody>().fieldErrors).toEqual({ ids: 'Send the ids in their new order' });
    expect((await send('PUT', '/api/admin/testimonials/order', { ids: ['a'] })).statusCode).toBe(400);
    expect(await snapshot('testimonials')).toEqual(before);
  });

  it('deletes a testimonial, which then is gone everywhere', async () => {
    const last = (await staffList<AdminTestimonial>('/api/admin/testimonials')).at(-1)!;
    expect((await send('DELETE', `/api/admin/testimonials/${last.id}`)).json()).toEqual({ message: 'Testimonial deleted' });
    expect((await staffList<AdminTestimonial>('/api/admin/testimonials')).map((t) => t.id)).not.toContain(last.id);
    expect((await publicTestimonials()).map((t) => t.id)).not.toContain(last.id);
    expect((await send('DELETE', `/api/admin/testimonials/${last.id}`)).statusCode).toBe(404);
    expect((await auditOf('testimonial')).at(-1)).toMatchObject({ action: 'testimonial.delete', entity_id: String(last.id), after: null });
    expect((await auditOf('testimonial')).at(-1)!.before).toMatchObject({ author: last.author });
  });
});

describe('farm-gallery banners', () => {
  const shed = { imageUrl: '/uploads/packing-shed.webp', title: 'Our Packing Shed' };

  it('lists the farm gallery, creates a banner at its end and shows it on the storefront', async () => {
    expect((await staffList<AdminBanner>('/api/admin/content/banners')).map((b) => [b.title, b.isActive])).toEqual([
      ['Family Orchards of Ratnagiri and Gir', true],
      ['Hand-Picked at Peak Maturity', true],
      ['Graded and Packed with Care', true],
      ['Delivered Fresh Across New Zealand', true],
    ]);
    const response = await send('POST', '/api/admin/content/banners', shed);
    expect(response.statusCode).toBe(201);
    const created = response.json<AdminBanner>();
    expect(created).toEqual({ ...shed, id: created.id, isActive: true, updatedAt: created.updatedAt });
    expect((await publicBanners()).at(-1)).toEqual({ id: created.id, ...shed, image: null });
    expect((await auditOf('banner')).at(-1)).toMatchObject({ action: 'banner.create', entity_id: String(created.id), actor_user_id: adminId });
  });

  it.each([
    ['a javascript: image', { ...shed, imageUrl: 'javascript:alert(1)' }, { imageUrl: 'Image URL must be a shop path like /uploads/...: upload the picture' }],
    ['an http image', { ...shed, imageUrl: 'http://example.com/a.png' }, { imageUrl: 'Image URL must be a shop path like /uploads/...: upload the picture' }],
    ['a missing image and too short a title', { title: 'A' }, { imageUrl: 'Image is required', title: 'Title must be at least 2 characters' }],
    ['too long a title and a location', { ...shed, title: 'x'.repeat(121), location: 'home_hero' }, { title: 'Title must be at most 120 characters', location: 'Unknown field: location' }],
  ])('refuses %s with field messages and changes nothing', async (_case, body, fieldErrors) => {
    const before = await snapshot('banners');
    const response = await send('POST', '/api/admin/content/banners', body);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual(fieldErrors);
    expect(await snapshot('banners')).toEqual(before);
  });

  it('edits, hides and shows a banner, with the storefront following at once', async () => {
    const [first] = await staffList<AdminBanner>('/api/admin/content/banners');
    expect((await send('PUT', `/api/admin/content/banners/${first!.id}`, { title: 'Orchards of Ratnagiri' })).json<AdminBanner>().title).toBe('Orchards of Ratnagiri');
    expect((await publicBanners())[0]!.title).toBe('Orchards of Ratnagiri');
    await send('PUT', `/api/admin/content/banners/${first!.id}`, { isActive: false });
    expect((await publicBanners()).map((b) => b.id)).not.toContain(first!.id);
    await send('PUT', `/api/admin/content/banners/${first!.id}`, { isActive: true });
    expect((await publicBanners())[0]!.id).toBe(first!.id);
    expect((await auditOf('banner')).slice(-3).map((a) => a.action)).toEqual(['banner.update', 'banner.hide', 'banner.show']);

    const before = await snapshot('banners');
    expect((await send('PUT', `/api/admin/content/banners/${first!.id}`, { imageUrl: 'javascript:alert(1)' })).statusCode).toBe(400);
    expect((await send('PUT', `/api/admin/content/banners/${first!.id}`, { isActive: 'no' })).json<ApiErrorBody>().fieldErrors).toEqual({ isActive: 'Must be true or false' });
    expect(await snapshot('banners')).toEqual(before);
  });

  it('only touches farm-gallery banners', async () => {
    const [other] = await queryRows<{ id: number }>(shop.database.db, sql`insert into banners (location, image_url, title) values ('home_hero', '/images/hero.svg', 'Hero') returning id`);
    expect((await send('PUT', `/api/admin/content/banners/${other!.id}`, { title: 'Taken over' })).statusCode).toBe(404);
    expect((await send('DELETE', `/api/admin/content/banners/${other!.id}`)).statusCode).toBe(404);
    expect((await staffList<AdminBanner>('/api/admin/content/banners')).map((b) => b.id)).not.toContain(other!.id);
  });

  it('reorders in one request and deletes', async () => {
    const ids = (await staffList<AdminBanner>('/api/admin/content/banners')).map((b) => b.id);
    const moved = [ids[1]!, ids[0]!, ...ids.slice(2)];
    expect((await send('PUT', '/api/admin/content/banners/order', { ids: moved })).json<AdminBanner[]>().map((b) => b.id)).toEqual(moved);
    expect((await publicBanners()).map((b) => b.id)).toEqual(moved);
    expect((await send('PUT', '/api/admin/content/banners/order', { ids: moved.slice(1) })).statusCode).toBe(409);

    expect((await send('DELETE', `/api/admin/content/banners/${moved[0]}`)).statusCode).toBe(200);
    expect((await publicBanners()).map((b) => b.id)).toEqual(moved.slice(1));
    expect((await send('DELETE', `/api/admin/content/banners/${moved[0]}`)).statusCode).toBe(404);
    expect((await auditOf('banner')).slice(-2).map((a) => a.action)).toEqual(['banner.reorder', 'banner.delete']);
  });
});

describe('content pages', () => {
  const recipes = { slug: 'mango-recipes', title: 'Mango Recipes', body: '## Mango lassi\n\nBlend one **ripe** Alphonso with yoghurt.' };
  const publicPage = (slug: string) => publicGet(`/api/content/pages/${slug}`);

  it('lists every page by title, with the linked ones marked as protected', async () => {
    const pages = await staffList<AdminPageSummary>('/api/admin/content/pages');
    expect(pages.map((p) => p.title)).toEqual(['About Us', 'Contact Us', 'Mango Season Guide', 'Privacy Policy', 'Refund Policy', 'Shipping Policy', 'Terms & Conditions', 'Test Content']);
    expect(pages.every((p) => p.isProtected)).toBe(true);
    const about = (await staff({ method: 'GET', url: '/api/admin/content/pages/about-us' })).json<AdminPage>();
    expect(about.body).toBe((await publicPage('about-us')).json<ContentPage>().body);
  });

  it('creates a page that the storefront serves at once, and refuses its address twice', async () => {
    const response = await send('POST', '/api/admin/content/pages', recipes);
    expect(response.statusCode).toBe(201);
    expect(response.json<AdminPage>()).toMatchObject({ ...recipes, isProtected: false });
    expect((await publicPage('mango-recipes')).json<ContentPage>()).toMatchObject(recipes);
    expect((await auditOf('content_page')).at(-1)).toMatchObject({ action: 'content_page.create', entity_id: 'mango-recipes', actor_user_id: adminId });

    const twice = await send('POST', '/api/admin/content/pages', { ...recipes, title: 'Other Recipes' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<ApiErrorBody>()).toEqual({ message: 'A page with this address already exists', fieldErrors: { slug: 'A page with this address already exists' } });
    expect((await publicPage('mango-recipes')).json<ContentPage>().title).toBe('Mango Recipes');
  });

  it.each([
    ['an address with capitals and spaces', { ...recipes, slug: 'Mango Recipes' }, { slug: 'Use lower-case letters, digits and single hyphens, like mango-recipes' }],
    ['a double hyphen and a one-letter title', { ...recipes, slug: 'mango--recipes', title: 'M' }, { slug: 'Use lower-case letters, digits and single hyphens, like mango-recipes', title: 'Title must be at least 2 characters' }],
    ['the reserved address new', { ...recipes, slug: 'new' }, { slug: 'This address is reserved: choose another' }],
    ['too long an address', { ...recipes, slug: 'a'.repeat(81) }, { slug: 'Address must be at most 80 characters' }],
    ['blank text', { slug: 'new-page', title: 'New Page', body: '   ' }, { body: 'Page text is required' }],
    ['too long a text', { slug: 'new-page', title: 'New Page', body: 'x'.repeat(20_001) }, { body: 'Page text must be at most 20,000 characters' }],
  ])('refuses %s with field messages and changes nothing', async (_case, body, fieldErrors) => {
    const before = await snapshot('content_pages');
    const response = await send('POST', '/api/admin/content/pages', body);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual(fieldErrors);
    expect(await snapshot('content_pages')).toEqual(before);
  });

  it('edits the title and text of a linked page, but never its address', async () => {
    const response = await send('PUT', '/api/admin/content/pages/shipping-policy', { title: 'Shipping', body: 'We ship **on Mondays**.' });
    expect(response.json<AdminPage>()).toMatchObject({ slug: 'shipping-policy', title: 'Shipping', body: 'We ship **on Mondays**.', isProtected: true });
    expect((await publicPage('shipping-policy')).json<ContentPage>()).toMatchObject({ title: 'Shipping', body: 'We ship **on Mondays**.' });
    expect((await auditOf('content_page')).at(-1)).toMatchObject({ action: 'content_page.update', entity_id: 'shipping-policy', before: { title: 'Shipping Policy' }, after: { title: 'Shipping' } });

    const before = await snapshot('content_pages');
    expect((await send('PUT', '/api/admin/content/pages/shipping-policy', { slug: 'shipping' })).json<ApiErrorBody>().fieldErrors).toEqual({ slug: 'Unknown field: slug', body: 'Send at least one field to change' });
    expect((await send('PUT', '/api/admin/content/pages/shipping-policy', { title: '' })).json<ApiErrorBody>().fieldErrors).toEqual({ title: 'Title must be at least 2 characters' });
    expect((await send('PUT', '/api/admin/content/pages/shipping-policy', {})).statusCode).toBe(400);
    expect((await send('PUT', '/api/admin/content/pages/no-such-page', { title: 'Ghost' })).statusCode).toBe(404);
    expect((await send('PUT', '/api/admin/content/pages/Bad_Slug', { title: 'Ghost' })).statusCode).toBe(400);
    expect(await snapshot('content_pages')).toEqual(before);
  });

  it('stores markup in a page as plain text and serves it unchanged (the renderer makes it inert)', async () => {
    const body = '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[Win a box](javascript:alert(3))';
    expect((await send('PUT', '/api/admin/content/pages/mango-recipes', { body })).statusCode).toBe(200);
    const served = await publicPage('mango-recipes');
    expect(served.headers['content-type']).toMatch(/^application\/json/);
    expect(served.json<ContentPage>().body).toBe(body);
  });

  it('deletes a page, after which it is not found, and refuses to delete a linked page', async () => {
    expect((await send('DELETE', '/api/admin/content/pages/mango-recipes')).json()).toEqual({ message: 'Page deleted' });
    expect((await publicPage('mango-recipes')).statusCode).toBe(404);
    expect((await staff({ method: 'GET', url: '/api/admin/content/pages/mango-recipes' })).statusCode).toBe(404);
    expect((await send('DELETE', '/api/admin/content/pages/mango-recipes')).statusCode).toBe(404);
    expect((await auditOf('content_page')).at(-1)).toMatchObject({ action: 'content_page.delete', entity_id: 'mango-recipes', before: { title: 'Mango Recipes' } });

    const before = await snapshot('content_pages');
    for (const slug of ['about-us', 'shipping-policy', 'refund-policy', 'terms-conditions', 'privacy-policy']) {
      const refused = await send('DELETE', `/api/admin/content/pages/${slug}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json<ApiErrorBody>().message).toBe('The shop links to this page, so it cannot be deleted. Edit its text instead.');
      expect((await publicPage(slug)).statusCode).toBe(200);
    }
    expect(await snapshot('content_pages')).toEqual(before);
  });
});
