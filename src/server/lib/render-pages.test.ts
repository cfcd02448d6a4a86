import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppLoadContext, ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { createTestShop, registerAndSignIn, type TestShop } from '../testing/test-app';
import { pageRenderer } from './render-pages';

/**
 * The smallest server build React Router will render: one page whose loader asks the shop's API
 * who is signed in, as the real root does, and answers what it learnt as the page's text.
 */
function whoAmIBuild(): ServerBuild {
  const loader = async ({ context }: { context: AppLoadContext }) => context.api<{ username: string } | null>('/api/me', { on401: 'null' });
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

describe('pages drawn behind a TLS proxy', () => {
  let shop: TestShop;
  let front: FastifyInstance;

  beforeAll(async () => {
    shop = await createTestShop({ TRUST_PROXY: '1', COOKIE_SECURE: 'auto' });
    // The page side of the shop, as the proxy reaches it, drawing with the shop's own API in process
    // (TRUST_PROXY=1 believes the one proxy that connected).
    front = Fastify({ trustProxy: (_address: string, hop: number) => hop < 1 });
    const render = await pageRenderer(shop.app, whoAmIBuild(), { mode: 'production', publicUrl: undefined });
    front.get('/*', render);
    await front.ready();
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
