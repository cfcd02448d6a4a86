import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { products, testimonials } from '../../db/schema';
import { deliveredOrder, photoForm } from '../../testing/claim-helpers';
import { buildApp } from '../../app';
import { firstDeliveryDate, newCheckoutKey, quickShopper, testProduct, testPromo, testShipping } from '../../testing/order-helpers';
import { type PurgeRecorder, startPurgeRecorder } from '../../testing/purge-recorder';
import { openStaffShop, signInAdmin, type StaffCall, type TestShop } from '../../testing/test-app';

// The shop's clock runs from a Wednesday's early afternoon in Auckland: far from midnight, which
// shortens every s-maxage, whatever the hour the tests run at.
const startedAt = Date.parse('2026-12-09T01:00:00Z');
const offset = startedAt - Date.now();
const clock = () => new Date(Date.now() + offset);

let shop: TestShop;
let staff: StaffCall;
let recorder: PurgeRecorder;
const hook: { bodies: string[] } = { bodies: [] };

beforeAll(async () => {
  recorder = await startPurgeRecorder();
  ({ shop, staff } = await openStaffShop({
    clock,
    env: { VARNISH_URL: recorder.url, CACHE_S_MAXAGE_SECONDS: '600', CACHE_STALE_SECONDS: '20' },
    purgeTiming: { gatherMs: 5, settleMs: 0, retryMs: [50, 50], timeoutMs: 2000 },
  }));
});
afterAll(async () => {
  await shop?.close();
  await recorder?.close();
});

/** Waits for the comparison and the purges a change started, and answers the tags purged since the last call. */
async function purgedTags(): Promise<string[]> {
  await shop.app.services.sharedCacheChanges.idle();
  await shop.app.services.purger.idle();
  return [...new Set(recorder.takePurges().flat())].sort();
}

beforeEach(async () => {
  await purgedTags();
  hook.bodies = [];
});

const visitor = (url: string) => shop.app.inject({ method: 'GET', url });
const tagsOf = (response: LightMyRequestResponse) => String(response.headers.xkey ?? '').split(' ').filter(Boolean);
const sMaxAge = (response: LightMyRequestResponse) => Number(/s-maxage=(\d+)/.exec(String(response.headers['cache-control']))?.[1]);

function expectShared(response: LightMyRequestResponse, tags: string[]) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=20$/);
  expect(response.headers['set-cookie']).toBeUndefined();
  const list = tagsOf(response);
  for (const tag of tags) expect(list, `tag ${tag}`).toContain(tag);
  expect(String(response.headers['surrogate-key'])).toBe(String(response.headers.xkey));
  expect(String(response.headers['cache-tag'])).toBe(list.join(','));
}

function expectPersonal(response: LightMyRequestResponse) {
  expect(response.headers['cache-control']).toBe('private, no-store');
  for (const name of ['xkey', 'surrogate-key', 'cache-tag']) expect(response.headers[name], name).toBeUndefined();
}

describe('what a shared cache may keep', () => {
  it('shares the public JSON a visitor reads, under the tags of what it shows', async () => {
    const product = await testProduct(shop, { stock: 5 });
    const list = await visitor('/api/products');
    expectShared(list, ['catalog', String(product.id)]);
    expect(sMaxAge(list)).toBeGreaterThan(0);
    expectShared(await visitor(`/api/products?search=${encodeURIComponent(product.name)}`), ['catalog', String(product.id)]);
    const one = await visitor(`/api/products/${product.id}`);
    expectShared(one, [String(product.id)]);
    expect(tagsOf(one)).toEqual([String(product.id)]);
    expectShared(await visitor(`/api/products/${product.id}/reviews?page=1`), [String(product.id)]);
    expect(tagsOf(await visitor('/api/settings'))).toEqual(['settings']);
    expect(tagsOf(await visitor('/api/testimonials'))).toEqual(['testimonials']);
    expect(tagsOf(await visitor('/api/content/banners/location/home_farm'))).toEqual(['banners']);
    expect(tagsOf(await visitor('/api/promo-codes/active'))).toEqual(['banners']);
    const page = await visitor('/api/content/pages/about-us');
    expectShared(page, ['content:about-us']);
  });

  it('never shares an answer to a signed-in request, even the public ones', async () => {
    const product = await testProduct(shop);
    const shopper = await quickShopper(shop);
    for (const url of ['/api/products', `/api/products/${product.id}`, '/api/settings', '/api/testimonials', '/api/content/pages/about-us', '/api/promo-codes/active']) {
      expectPersonal(await shopper.call({ method: 'GET', url }));
    }
  });

  it('keeps whatever depends on who asks private, with no tags', async () => {
    const shopper = await quickShopper(shop);
    expectPersonal(await shopper.call({ method: 'GET', url: `/api/cart/${shopper.user.id}` }));
    expectPersonal(await shopper.call({ method: 'GET', url: '/api/me' }));
    expectPersonal(await visitor('/api/me'));
    expectPersonal(await visitor('/api/time'));
    expectPersonal(await visitor('/api/products/999999'));
    expectPersonal(await visitor('/api/content/pages/no-such-page'));
    expectPersonal(await staff({ method: 'GET', url: '/api/admin/settings' }));
    expectPersonal(await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'nobody@example.nz', password: 'wrong-password' } }));
  });

  it('keeps a hidden product staff look at private', async () => {
    const hidden = await testProduct(shop, { isHidden: true });
    expectPersonal(await visitor(`/api/products/${hidden.id}`));
    const seen = await staff({ method: 'GET', url: `/api/products/${hidden.id}` });
    expect(seen.statusCode).toBe(200);
    expectPersonal(seen);
  });
});

describe('what the clock alone changes', () => {
  it('keeps the products no later than the next pre-order opening', async () => {
    const opening = new Date(clock().getTime() + 90_000);
    const product = await testProduct(shop, { isPreOrder: true, expectedAvailabilityDate: '2099-01-10', preOrdersOpenAt: opening });
    for (const url of ['/api/products', `/api/products/${product.id}`]) {
      const answer = await visitor(url);
      expect(sMaxAge(answer), url).toBeLessThanOrEqual(90);
      expect(sMaxAge(answer), url).toBeGreaterThanOrEqual(85);
      // Nothing stale past the opening either.
      expect(answer.headers['cache-control'], url).toContain('stale-while-revalidate=0');
    }
    await shop.database.db.update(products).set({ preOrdersOpenAt: null }).where(eq(products.id, product.id));
    await shop.app.services.bus.publish('products');
  });

  it('serves nothing stale past an opening a little further off than the s-maxage', async () => {
    // 600 s kept and 20 s stale would run 12 s past an opening 608 s away.
    const opening = new Date(clock().getTime() + 608_000);
    const product = await testProduct(shop, { isPreOrder: true, expectedAvailabilityDate: '2099-01-10', preOrdersOpenAt: opening });
    for (const url of [`/api/products/${product.id}`, '/api/products']) {
      const answer = await visitor(url);
      const cacheControl = String(answer.headers['cache-control']);
      const stale = Number(/stale-while-revalidate=(\d+)/.exec(cacheControl)?.[1]);
      expect(sMaxAge(answer), url).toBeGreaterThanOrEqual(595);
      expect(sMaxAge(answer) + stale, url).toBeLessThanOrEqual(608);
      expect(stale, url).toBeLessThan(20);
    }
    await shop.database.db.update(products).set({ preOrdersOpenAt: null }).where(eq(products.id, product.id));
    await shop.app.services.bus.publish('products');
  });

  it('keeps the offers in the banner no later than one starts or ends', async () => {
    const promo = await testPromo(shop, { endsAt: new Date(Date.now() + 45_000) });
    const seconds = sMaxAge(await visitor('/api/promo-codes/active'));
    expect(seconds).toBeLessThanOrEqual(45);
    expect(seconds).toBeGreaterThanOrEqual(40);
    await staff({ method: 'DELETE', url: `/api/admin/promo-codes/${promo.id}` });
  });

  it('leaves out an offer that has not started or is used up, and keeps the banner only until the next one starts', async () => {
    const later = await testPromo(shop, { startsAt: new Date(Date.now() + 90_000) });
    const usedUp = await testPromo(shop, { maxUses: 1, usedCount: 1 });
    const answer = await visitor('/api/promo-codes/active');
    const codes = (answer.json() as { code: string }[]).map((promo) => promo.code);
    expect(codes).not.toContain(later.code);
    expect(codes).not.toContain(usedUp.code);
    const seconds = sMaxAge(answer);
    expect(seconds).toBeLessThanOrEqual(90);
    expect(seconds).toBeGreaterThanOrEqual(85);
    for (const promo of [later, usedUp]) await staff({ method: 'DELETE', url: `/api/admin/promo-codes/${promo.id}` });
  });
});

describe('what a change purges', () => {
  it('a price change purges the product, and nothing else', async () => {
    const product = await testProduct(shop);
    await purgedTags();
    const saved = await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { price: 61.5 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await purgedTags()).toEqual([String(product.id)]);
  });

  it('a product shown or hidden, added or deleted purges the catalogue too', async () => {
    const created = await staff({
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Purge Alphonso', description: 'A box for the purge test.', price: 50, imageUrl: '/images/products/alphonso.jpg', category: 'Premium', rating: 4.5, stock: 4 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    expect(await purgedTags()).toEqual([String(id), 'catalog'].sort());
    await staff({ method: 'PUT', url: `/api/products/${id}`, payload: { isHidden: true } });
    expect(await purgedTags()).toEqual([String(id), 'catalog'].sort());
    // Hidden, its edits show nowhere.
    await staff({ method: 'PUT', url: `/api/products/${id}`, payload: { price: 55 } });
    expect(await purgedTags()).toEqual([]);
    await staff({ method: 'PUT', url: `/api/products/${id}`, payload: { isHidden: false } });
    expect(await purgedTags()).toEqual([String(id), 'catalog'].sort());
    const deleted = await staff({ method: 'DELETE', url: `/api/products/${id}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await purgedTags()).toEqual([String(id), 'catalog'].sort());
  });

  it('a box sold purges nothing until the stock reaches zero', async () => {
    const product = await testProduct(shop, { stock: 30 });
    await purgedTags();
    const first = await quickShopper(shop);
    await first.add(product.id, 1);
    expect((await first.order()).statusCode).toBe(201);
    expect(await purgedTags()).toEqual([]);
    const last = await quickShopper(shop);
    await last.add(product.id, 29);
    expect((await last.order()).statusCode).toBe(201);
    expect(await purgedTags()).toEqual([String(product.id)]);
  });

  it('a pre-order reaching its limit purges the product', async () => {
    const product = await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2099-02-01', preOrderLimit: 3 });
    await purgedTags();
    const first = await quickShopper(shop);
    await first.add(product.id, 1);
    expect((await first.order()).statusCode).toBe(201);
    expect(await purgedTags()).toEqual([]);
    const second = await quickShopper(shop);
    await second.add(product.id, 2);
    expect((await second.order()).statusCode).toBe(201);
    expect(await purgedTags()).toEqual([String(product.id)]);
  });

  it('content purges exactly what it shows: the page, the banners, the testimonials', async () => {
    const page = await staff({ method: 'PUT', url: '/api/admin/content/pages/about-us', payload: { title: 'About the orchard' } });
    expect(page.statusCode, page.body).toBe(200);
    expect(await purgedTags()).toEqual(['content:about-us']);
    const testimonial = await staff({ method: 'POST', url: '/api/admin/testimonials', payload: { content: 'The best mangoes this side of Mumbai.', author: 'Mere', rating: 5 } });
    expect(testimonial.statusCode, testimonial.body).toBe(201);
    expect(await purgedTags()).toEqual(['testimonials']);
    const banner = await staff({ method: 'POST', url: '/api/admin/content/banners', payload: { imageUrl: '/images/products/alphonso.jpg', title: 'Alphonso is here' } });
    expect(banner.statusCode, banner.body).toBe(201);
    expect(await purgedTags()).toEqual(['banners']);
    await shop.database.db.delete(testimonials).where(eq(testimonials.author, 'Mere'));
  });

  it('settings purge the settings', async () => {
    const current = (await staff({ method: 'GET', url: '/api/admin/settings' })).json() as Record<string, unknown>;
    const saved = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...current, siteName: 'Mango Shop NZ' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await purgedTags()).toEqual(['settings']);
  });

  it('an offer changed by staff, or used up by its last order, purges the banners', async () => {
    const created = await staff({ method: 'POST', url: '/api/admin/promo-codes', payload: { code: 'PURGE-ONE', description: 'One use only', discountType: 'percentage', discountValue: 10, maxUses: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    expect(await purgedTags()).toEqual(['banners']);
    const product = await testProduct(shop, { stock: 50 });
    await purgedTags();
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    expect((await shopper.order({ promoCode: 'PURGE-ONE' })).statusCode).toBe(201);
    expect(await purgedTags()).toEqual(['banners']);
  });

  it('an opening time reached purges the product, once the alarm rings', async () => {
    const product = await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2099-03-01', preOrdersOpenAt: new Date(clock().getTime() + 1500) });
    await purgedTags();
    shop.app.services.sharedCacheChanges.clockPassed();
    expect(await purgedTags()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    shop.app.services.sharedCacheChanges.clockPassed();
    expect(await purgedTags()).toEqual([String(product.id)]);
  });

  it('a rename that changes what a search finds purges the catalogue', async () => {
    const product = await testProduct(shop);
    await purgedTags();
    await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { name: 'Sindoora Purge Special' } });
    expect(await purgedTags()).toEqual([String(product.id), 'catalog'].sort());
  });

  it('an order cancelled gives its promo use back and purges the banners', async () => {
    const created = await staff({ method: 'POST', url: '/api/admin/promo-codes', payload: { code: 'PURGE-BACK', description: 'One use', discountType: 'percentage', discountValue: 10, maxUses: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    const product = await testProduct(shop, { stock: 50 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const placed = await shopper.order({ promoCode: 'PURGE-BACK' });
    expect(placed.statusCode).toBe(201);
    await purgedTags();
    const number = (placed.json() as { order: { number: string } }).order.number;
    const cancelled = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status: 'cancelled' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await purgedTags()).toContain('banners');
  });

  it('the later order of two paid for together, cancelled, gives the first one’s promo use back and purges the banners', async () => {
    const created = await staff({ method: 'POST', url: '/api/admin/promo-codes', payload: { code: 'PURGE-PAIR', description: 'One use', discountType: 'percentage', discountValue: 10, maxUses: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    const inStock = await testProduct(shop, { stock: 50 });
    const coming = await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2099-03-10' });
    const shopper = await quickShopper(shop);
    await shopper.add(inStock.id, 1);
    await shopper.add(coming.id, 1);
    const placed = await shopper.order({ promoCode: 'PURGE-PAIR', sendSeparately: true });
    expect(placed.statusCode, placed.body).toBe(201);
    const later = (placed.json() as { order: { laterDelivery: { number: string } | null } }).order.laterDelivery;
    expect(later).not.toBeNull();
    await purgedTags();
    const cancelled = await shopper.call({ method: 'POST', url: `/api/orders/${later!.number}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await purgedTags()).toContain('banners');
    expect((await visitor('/api/promo-codes/active')).json()).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'PURGE-PAIR' })]));
  });

  it('a review published, hidden or answered purges its product', async () => {
    const { first, shopper } = await deliveredOrder(shop, staff);
    await purgedTags();
    const form = photoForm('review', { rating: 5, body: 'Sweet all the way to the stone.' }, []);
    const posted = await shopper.call({ method: 'POST', url: `/api/products/${first.id}/reviews`, headers: form.headers, payload: form.payload });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(await purgedTags()).toEqual([String(first.id)]);
    const reviewId = (posted.json() as { id: number }).id;
    // The writer's name is on the review: a new one purges the product too.
    const renamed = await shopper.call({ method: 'PUT', url: '/api/account/profile', payload: { firstName: 'Priya', lastName: 'Sharma', phone: '021 123 4567', address: '12 Ponsonby Road', city: '', postalCode: '', region: '' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await purgedTags()).toEqual([String(first.id)]);
    const hidden = await staff({ method: 'POST', url: `/api/admin/reviews/${reviewId}/hide`, payload: { reason: 'abuse' } });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(await purgedTags()).toEqual([String(first.id)]);
  });
});

describe('several processes', () => {
  it('purge once per change, whichever of them sees it first', async () => {
    // Another process of the same shop: its own caches, the same database, the same pictures.
    const publicDir = fileURLToPath(new URL('../../../../public', import.meta.url));
    const second = await buildApp({ config: shop.config, database: shop.database, mailTransport: shop.mailer, publicDir, clock, purgeTiming: { gatherMs: 5, settleMs: 0, retryMs: [50], timeoutMs: 2000 } });
    await second.ready();
    try {
      const product = await testProduct(shop, { stock: 2 });
      await purgedTags();
      // The last two boxes, sold at once through the two processes: the product's shape changes once.
      const buyers = await Promise.all([quickShopper(shop), quickShopper(shop)]);
      for (const buyer of buyers) await buyer.add(product.id, 1);
      const orders = [buyers[0]!.order(), second.inject({ method: 'POST', url: '/api/orders', headers: { cookie: buyers[1]!.cookie }, payload: { shipping: testShipping, idempotencyKey: newCheckoutKey(), deliveryDate: await firstDeliveryDate(shop, testShipping.region) } })];
      expect((await Promise.all(orders)).map((response) => response.statusCode)).toEqual([201, 201]);
      await second.services.sharedCacheChanges.idle();
      await second.services.purger.idle();
      await shop.app.services.sharedCacheChanges.idle();
      await shop.app.services.purger.idle();
      expect(recorder.takePurges()).toEqual([[String(product.id)]]);
      // A change through the second process is purged by it alone.
      const saved = await second.inject({ method: 'PUT', url: `/api/products/${product.id}`, headers: { cookie: (await signInAdmin(shop)).cookie }, payload: { price: 70 } });
      expect(saved.statusCode, saved.body).toBe(200);
      await second.services.sharedCacheChanges.idle();
      await second.services.purger.idle();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await shop.app.services.sharedCacheChanges.idle();
      await shop.app.services.purger.idle();
      expect(recorder.takePurges()).toEqual([[String(product.id)]]);
    } finally {
      await second.close();
    }
  });
});

describe('a new build', () => {
  it('purges the pages every other build drew, at start', async () => {
    const changes = shop.app.services.sharedCacheChanges;
    changes.pagesBuiltBy('build:0ld0ld0ld0ld');
    await changes.start();
    await purgedTags();
    changes.pagesBuiltBy('build:5ee5ee5ee5ee');
    await changes.start();
    expect(await purgedTags()).toContain('build:0ld0ld0ld0ld');
    // Started again with the same build, it purges the old one's pages again (a process not yet restarted may have drawn more).
    await changes.start();
    const again = await purgedTags();
    expect(again).toContain('build:0ld0ld0ld0ld');
    expect(again).not.toContain('build:5ee5ee5ee5ee');
  });

  it('purges a build that ran longer than a week without a restart once more, then forgets it', async () => {
    const changes = shop.app.services.sharedCacheChanges;
    await shop.database.db.execute(sql`insert into shared_cache_shapes (tag, shape, updated_at) values ('build:1ongrunn1ng0', 'build', now() - interval '8 days')`);
    changes.pagesBuiltBy('build:5ee5ee5ee5ee');
    await changes.start();
    expect(await purgedTags()).toContain('build:1ongrunn1ng0');
    await changes.start();
    expect(await purgedTags()).not.toContain('build:1ongrunn1ng0');
  });
});

describe('purging', () => {
  it('tells a CDN hook too, in one POST with the tags and its header', async () => {
    const cdn = await startPurgeRecorder();
    const other = await openStaffShop({
      env: { CACHE_PURGE_URL: `${cdn.url}/purge`, CACHE_PURGE_HEADER: 'Authorization: Bearer cdn-token' },
      purgeTiming: { gatherMs: 5, settleMs: 0, retryMs: [50], timeoutMs: 2000 },
    });
    try {
      const saved = await other.staff({ method: 'PUT', url: '/api/admin/content/pages/about-us', payload: { title: 'About us, again' } });
      expect(saved.statusCode).toBe(200);
      await other.shop.app.services.purger.idle();
      const posts = cdn.requests.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(JSON.parse(posts[0]!.body)).toEqual({ tags: ['content:about-us'] });
      expect(posts[0]!.headers.authorization).toBe('Bearer cdn-token');
      expect(posts[0]!.headers['surrogate-key']).toBe('content:about-us');
    } finally {
      await other.shop.close();
      await cdn.close();
    }
  });

  it('tries a failed purge again, and counts it', async () => {
    const failuresBefore = shop.app.services.purger.failures;
    recorder.answerNext(503);
    await staff({ method: 'PUT', url: '/api/admin/content/pages/contact', payload: { title: 'Talk to us' } });
    await shop.app.services.purger.idle();
    await new Promise((resolve) => setTimeout(resolve, 150));
    await shop.app.services.purger.idle();
    expect(shop.app.services.purger.failures).toBe(failuresBefore + 1);
    // The failed one and the one that got through, with the same tags.
    expect(recorder.takePurges()).toEqual([['content:contact'], ['content:contact']]);
  });
});
