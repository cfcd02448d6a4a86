import { sql } from 'drizzle-orm';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppLoadContext, ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { createTestShop, registerAndSignIn, type TestShop } from '../testing/test-app';
import { products } from '../db/schema';
import { testProduct, testPromo } from '../testing/order-helpers';
import { PageCache } from './page-cache';
import { pageRenderer } from './render-pages';

/**
 * The smallest server build React Router will render: one page whose loader asks the shop's API
 * who is signed in, as the real root does, and answers what it learnt as the page's text.
 */
function whoAmIBuild(): ServerBuild {
  return buildReading(async ({ context }: { context: AppLoadContext }) => context.api<{ username: string } | null>('/api/me', { on401: 'null' }));
}

/** The same smallest build, its one page drawn from what `loader` reads. */
function buildReading(loader: (args: { context: AppLoadContext }) => Promise<unknown>): ServerBuild {
  return {
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers, context: { staticHandlerContext: { loaderData: Record<string, unknown> } }) => {
          headers.set('content-type', 'text/html; charset=utf-8');
          return new Response(`<p>${JSON.stringify(context.staticHandlerContext.loaderData.root)}</p>`, { status, headers });
        },
      },
    },
    routes: { root: { id: 'root', path: '', module: { default: () => null, loader } } },
    assets: {
      entry: { module: '/assets/entry.js', imports: [] },
      routes: { root: { id: 'root', path: '', module: '/assets/root.js', hasAction: false, hasLoader: true, hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false, hasErrorBoundary: false } },
      url: '/assets/manifest.js',
      version: 'test',
    },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
  } as unknown as ServerBuild; // a hand-made build: only the parts a document request reads
}

/** The page side of the shop, as the app serves it, drawing `build` with the shop's own API in process. */
async function pageFront(shop: TestShop, build: ServerBuild, options: { trustProxy?: (address: string, hop: number) => boolean; cache?: PageCache }): Promise<FastifyInstance> {
  const front = Fastify(options.trustProxy ? { trustProxy: options.trustProxy } : {});
  await front.register(fastifyCookie);
  front.get('/*', await pageRenderer(shop.app, build, { mode: 'production', publicUrl: undefined, ...(options.cache && { cache: options.cache }) }));
  await front.ready();
  return front;
}

describe('pages drawn behind a TLS proxy', () => {
  let shop: TestShop;
  let front: FastifyInstance;

  beforeAll(async () => {
    shop = await createTestShop({ TRUST_PROXY: '1', COOKIE_SECURE: 'auto' });
    // The page side of the shop, as the proxy reaches it, drawing with the shop's own API in process
    // (TRUST_PROXY=1 believes the one proxy that connected).
    front = await pageFront(shop, whoAmIBuild(), { trustProxy: (_address: string, hop: number) => hop < 1 });
  });
  afterAll(async () => {
    await front.close();
    await shop.close();
  });

  it('renews a session past half its life with a Secure cookie while drawing a page', async () => {
    const { cookie } = await registerAndSignIn(shop.app);
    // Past half of its 30 days: the next request that reads it renews it.
    await shop.database.db.update(sessions).set({ expiresAt: sql`now() + interval '2 days'` });
    const page = await front.inject({ method: 'GET', url: '/', headers: { cookie, 'x-forwarded-proto': 'https', host: 'shop.example.nz' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('aroha');
    const renewed = page.cookies.find((c) => c.name === 'mango_session');
    expect(renewed, 'the renewed session cookie').toBeDefined();
    expect(renewed!.secure).toBe(true);
    expect(renewed!.httpOnly).toBe(true);
  });

  it('keeps a renewed cookie plain over plain http, where a Secure one would not be kept', async () => {
    const { cookie } = await registerAndSignIn(shop.app, { username: 'tane', email: 'tane@example.nz' });
    await shop.database.db.update(sessions).set({ expiresAt: sql`now() + interval '2 days'` });
    const page = await front.inject({ method: 'GET', url: '/', headers: { cookie, host: 'shop.example.nz' } });
    expect(page.body).toContain('tane');
    const renewed = page.cookies.find((c) => c.name === 'mango_session');
    expect(renewed).toBeDefined();
    expect(renewed!.secure).toBeFalsy();
  });

  it('does not take the protocol from a header the browser could send to the API itself', async () => {
    const { cookie } = await registerAndSignIn(shop.app, { username: 'mere', email: 'mere@example.nz' });
    await shop.database.db.update(sessions).set({ expiresAt: sql`now() + interval '2 days'` });
    const answer = await shop.app.inject({ method: 'GET', url: '/api/me', headers: { cookie, 'x-mango-inner-call': 'guess https' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.cookies.find((c) => c.name === 'mango_session')!.secure).toBeFalsy();
  });
});

describe('a visitor page kept by a shared cache and in memory', () => {
  // Far from NZ midnight (which cuts every page short), whatever the hour the tests run at.
  const offset = Date.parse('2026-12-09T01:00:00Z') - Date.now();
  const clock = () => new Date(Date.now() + offset);
  let shop: TestShop;
  let front: FastifyInstance;
  let reads = '/api/products';
  const cache = new PageCache();

  beforeAll(async () => {
    shop = await createTestShop({ CACHE_S_MAXAGE_SECONDS: '600', CACHE_STALE_SECONDS: '20' }, { clock });
    front = await pageFront(shop, buildReading(async ({ context }) => context.api(reads)), { cache });
  });
  afterAll(async () => {
    await front.close();
    await shop.close();
  });

  it('is not served stale past an opening a little further off than its s-maxage', async () => {
    // 600 s kept and 20 s stale would run 12 s past an opening 608 s away.
    const product = await testProduct(shop, { isPreOrder: true, expectedAvailabilityDate: '2099-01-10', preOrdersOpenAt: new Date(clock().getTime() + 608_000) });
    await shop.app.services.catalog.current();
    cache.clear();
    reads = `/api/products/${product.id}`;
    const page = await front.inject({ method: 'GET', url: '/' });
    const cacheControl = String(page.headers['cache-control']);
    const [keep, stale] = [/s-maxage=(\d+)/, /stale-while-revalidate=(\d+)/].map((pattern) => Number(pattern.exec(cacheControl)?.[1]));
    expect(keep, cacheControl).toBeGreaterThanOrEqual(595);
    expect(keep! + stale!, cacheControl).toBeLessThanOrEqual(608);
    await shop.database.db.update(products).set({ preOrdersOpenAt: null });
  });

  it('is drawn again once an offer on it ends, not served from memory for the rest of its time', async () => {
    const promo = await testPromo(shop, { endsAt: new Date(Date.now() + 1500) });
    cache.clear();
    reads = '/api/promo-codes/active';
    expect((await front.inject({ method: 'GET', url: '/' })).body).toContain(promo.code);
    const kept = await front.inject({ method: 'GET', url: '/' });
    expect(kept.headers['x-page-cache']).toBe('hit');
    expect(kept.body).toContain(promo.code);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, promo.endsAt!.getTime() - Date.now()) + 300));
    expect((await front.inject({ method: 'GET', url: '/' })).body).not.toContain(promo.code);
  });
});
