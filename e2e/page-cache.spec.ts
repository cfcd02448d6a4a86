import http from 'node:http';
import { expect, test } from './fixtures';
import { registerShopper } from './shopper';

const pages = ['/', '/shop', '/product/1', '/about', '/test-content', '/no-such-page'];

test('pages kept for visitors never show a signed-in shopper, and each shopper sees only their own name', async ({ playwright, baseURL, browser }) => {
  const suffix = Date.now().toString(36);
  const names = [`cachearoha${suffix}`, `cachetama${suffix}`];
  const shoppers = [];
  for (const name of names) {
    const api = await playwright.request.newContext({ baseURL });
    const { email, password } = await registerShopper(api, name);
    expect((await api.post('/api/login', { data: { email, password } })).status()).toBe(200);
    shoppers.push(api);
  }
  const visitor = await playwright.request.newContext({ baseURL });

  for (const path of pages) {
    // All three at once, twice: the visitor's second answer comes from the cache.
    for (let round = 0; round < 2; round += 1) {
      const [first, second, seen] = await Promise.all([shoppers[0]!.get(path), shoppers[1]!.get(path), visitor.get(path)]);
      const [firstHtml, secondHtml, visitorHtml] = await Promise.all([first.text(), second.text(), seen.text()]);
      expect(firstHtml, path).toContain(names[0]);
      expect(firstHtml, path).not.toContain(names[1]);
      expect(secondHtml, path).toContain(names[1]);
      expect(secondHtml, path).not.toContain(names[0]);
      for (const name of names) expect(visitorHtml, path).not.toContain(name);
      expect(first.headers()['x-page-cache'], 'a shopper page is never the cached one').toBeUndefined();
      // A shared cache in front may keep the visitor's page, under the tags of what it shows; never a shopper's.
      expect(first.headers()['cache-control'], path).toBe('private, no-store');
      expect(first.headers().xkey, path).toBeUndefined();
      expect(seen.headers()['set-cookie'], path).toBeUndefined();
      if (path === '/no-such-page') expect(seen.headers()['cache-control'], path).toBe('private, no-store');
      else {
        expect(seen.headers()['cache-control'], path).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
        expect(seen.headers().xkey, path).toContain('settings');
        if (path === '/product/1') expect(seen.headers().xkey?.split(' '), path).toContain('1');
      }
      // A 404 is never kept: any address makes one.
      if (round === 1) expect(seen.headers()['x-page-cache'], path).toBe(path === '/no-such-page' ? 'miss' : 'hit');
    }
  }

  // A page first drawn for a shopper is never the one a visitor gets from the cache.
  await shoppers[0]!.get('/mango-season-guide');
  const guide = await visitor.get('/mango-season-guide');
  expect(await guide.text()).not.toContain(names[0]);

  // In a browser: the visitor's page from the cache hydrates as a visitor's.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/shop');
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible();
  for (const name of names) await expect(page.getByText(name)).toHaveCount(0);
  await context.close();
  for (const api of [...shoppers, visitor]) await api.dispose();
});

test('a cached page carries a policy that lets only its own inline scripts run, and no nonce', async ({ request }) => {
  await request.get('/shop');
  const cached = await request.get('/shop');
  expect(cached.headers()['x-page-cache']).toBe('hit');
  const scripts = /script-src [^;]*/.exec(cached.headers()['content-security-policy'] ?? '')?.[0] ?? '';
  expect(scripts).toMatch(/^script-src 'self' 'sha256-/);
  expect(scripts).not.toContain('nonce-');
  expect(scripts).not.toContain('unsafe-inline');
});

test('a change to a product reaches visitors at once, not when the cached page expires', async ({ request, playwright, baseURL }) => {
  await request.get('/product/2');
  expect((await request.get('/product/2')).headers()['x-page-cache']).toBe('hit');
  const admin = await playwright.request.newContext({ baseURL });
  expect((await admin.post('/api/login', { data: { email: 'owner@mangoshop.co.nz', password: 'orchard-keys-2026' } })).status()).toBe(200);
  const product = await (await admin.get('/api/products/2')).json();
  const renamed = `${product.name} Reserve`;
  expect((await admin.put('/api/products/2', { data: { name: renamed } })).status()).toBe(200);
  try {
    const after = await request.get('/product/2');
    expect(after.headers()['x-page-cache']).toBe('miss');
    expect(await after.text()).toContain(renamed);
  } finally {
    await admin.put('/api/products/2', { data: { name: product.name } });
    await admin.dispose();
  }
});

test('a request with a Host that is not a host name cannot put another page in the cache for an address', async ({ baseURL, request }) => {
  const { hostname, port } = new URL(baseURL!);
  const send = (host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http.get({ host: hostname, port, path: '/shop?category=Premium', headers: { host } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      }).on('error', reject);
    });
  for (const host of ['x?', 'a/b', 'x#']) {
    const answer = await send(host);
    // Refused without PUBLIC_URL; with it, drawn for PUBLIC_URL's origin: the shop either way.
    if (answer.status !== 400) expect(answer.body, host).toContain('Shop Mangoes');
  }
  const shop = await request.get('/shop?category=Premium');
  expect(await shop.text()).toContain('Shop Mangoes');
});

test('tracking parameters do not make a page of their own', async ({ request }) => {
  await request.get('/shop?category=Premium');
  const tagged = await request.get('/shop?utm_source=newsletter&category=Premium&fbclid=abc');
  expect(tagged.headers()['x-page-cache']).toBe('hit');
});

test('variants of an address share its cached page, and a flood of new ones cannot empty the cache', async ({ request }) => {
  await request.get('/shop');
  await request.get('/about');
  for (const variant of ['/shop', '/SHOP', '/Shop/', '/shop?utm_source=newsletter', '/shop?sort=bogus', '/shop?order=MS-1&signup=true']) {
    expect((await request.get(variant)).headers()['x-page-cache'], variant).toBe('hit');
  }
  expect((await request.get('/About?category=Premium')).headers()['x-page-cache']).toBe('hit');
  // Made-up categories are pages of their own, kept apart in a small share of the cache.
  for (let batch = 0; batch < 10; batch++) {
    await Promise.all(Array.from({ length: 10 }, (_, n) => request.get(`/shop?category=flood-${batch}-${n}`)));
  }
  expect((await request.get('/shop')).headers()['x-page-cache']).toBe('hit');
  expect((await request.get('/about')).headers()['x-page-cache']).toBe('hit');
});
