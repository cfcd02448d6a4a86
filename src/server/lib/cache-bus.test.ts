import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../contracts/product';
import { buildApp } from '../app';
import { openPostgres } from '../db/client';
import { MemoryMailer } from './mail';
import { startSilentProxy } from '../testing/silent-proxy';
import { as, createTestShop, signInAdmin, type TestShop } from '../testing/test-app';

/** Two processes of the shop on one database: a write in one must reach the other's cache. */
let shop: TestShop;
let otherProcess: FastifyInstance;
beforeAll(async () => {
  shop = await createTestShop();
  otherProcess = await buildApp({ config: shop.config, database: shop.database, mailTransport: new MemoryMailer() });
  await otherProcess.ready();
});
afterAll(async () => {
  await otherProcess?.close();
  await shop?.close();
});

async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

const shippingOf = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/api/settings' })).json<{ shipping: number }>().shipping;

async function setShippingCents(shippingCents: number): Promise<void> {
  const admin = await signInAdmin(shop);
  const current = await as(shop.app, admin.cookie)({ method: 'GET', url: '/api/admin/settings' });
  const saved = await as(shop.app, admin.cookie)({ method: 'PUT', url: '/api/admin/settings', payload: { ...current.json<Record<string, unknown>>(), shippingCents } });
  expect(saved.statusCode).toBe(200);
}

const names = async (app: FastifyInstance) =>
  (await app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>().map((p) => p.name);

describe('cache invalidation across processes', () => {
  it('hides a product in every process once one process hides it', async () => {
    expect(await names(otherProcess)).toContain('Alphonso Mangoes');
    const admin = await signInAdmin(shop);
    const hidden = await as(shop.app, admin.cookie)({ method: 'PUT', url: '/api/products/1', payload: { isHidden: true } });
    expect(hidden.statusCode).toBe(200);
    expect(await names(shop.app)).not.toContain('Alphonso Mangoes');
    expect(await eventually(async () => !(await names(otherProcess)).includes('Alphonso Mangoes'))).toBe(true);
  });

  it('turns maintenance on in every process once one process changes the settings', async () => {
    const before = await otherProcess.inject({ method: 'GET', url: '/api/settings' });
    expect(before.json<{ maintenance_mode_enabled: boolean }>().maintenance_mode_enabled).toBe(false);
    const admin = await signInAdmin(shop);
    const current = await as(shop.app, admin.cookie)({ method: 'GET', url: '/api/admin/settings' });
    const next = { ...current.json(), maintenance: { enabled: true, message: 'Back at noon.' } };
    expect((await as(shop.app, admin.cookie)({ method: 'PUT', url: '/api/admin/settings', payload: next })).statusCode).toBe(200);
    const seenElsewhere = await eventually(async () => {
      const settings = await otherProcess.inject({ method: 'GET', url: '/api/settings' });
      return settings.json<{ maintenance_mode_enabled: boolean }>().maintenance_mode_enabled;
    });
    expect(seenElsewhere).toBe(true);
  });
});

describe.runIf(process.env.DATABASE_URL)('when PostgreSQL drops the listening connection', () => {
  it('drops the cached copies, listens again and hears later changes', async () => {
    expect(await names(otherProcess)).toContain('Kesar Mangoes');
    await shop.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'mango-shop cache listener' and datname = current_database()`,
    );
    // A change no process announced: only the gap handling can make the caches read it.
    await shop.database.db.execute(sql`update products set is_hidden = true where id = 2`);
    expect(await eventually(async () => !(await names(otherProcess)).includes('Kesar Mangoes'), 8000)).toBe(true);

    const admin = await signInAdmin(shop);
    expect((await as(shop.app, admin.cookie)({ method: 'PUT', url: '/api/products/3', payload: { isHidden: true } })).statusCode).toBe(200);
    expect(await eventually(async () => !(await names(otherProcess)).includes('Banganapalli Mangoes'), 8000)).toBe(true);
  });
});

describe('the lifetime of cached copies', () => {
  it('reloads settings cached for longer than five minutes even when no change was announced', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // Once the other process shows the new price it has heard the change and cached it anew.
      await shippingOf(otherProcess);
      await setShippingCents(1300);
      expect(await eventually(async () => (await shippingOf(otherProcess)) === 13)).toBe(true);
      // A change no process announced (a hand edit, or a notification lost on its way).
      await shop.database.db.execute(sql`update site_settings set data = data || '{"shippingCents": 1400}'::jsonb where id = 1`);
      vi.advanceTimersByTime(4 * 60 * 1000);
      expect(await shippingOf(otherProcess)).toBe(13);
      vi.advanceTimersByTime(60 * 1000 + 1);
      expect(await shippingOf(otherProcess)).toBe(14);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('when the listening connection goes silent without closing', () => {
  it('notices it within a health check, drops the cached copies and listens again', async () => {
    // A third process reaches the database through a proxy that can silence its listening
    // connection: from then on the proxy forwards nothing either way and closes nothing, as a load
    // balancer or NAT that lost the flow in a failover. Neither end hears a FIN or RST, the server
    // keeps the session and the proxy answers the client's keepalive probes: a half-open
    // connection that only a round trip through the database can find out.
    const proxy = await startSilentProxy(shop.databaseUrl!);
    const healthCheck = { everyMs: 300, timeoutMs: 300 };
    const database = await openPostgres(proxy.url, { poolSize: 4, listenerHealthCheck: healthCheck });
    const thirdProcess = await buildApp({ config: shop.config, database, mailTransport: new MemoryMailer() });
    try {
      await thirdProcess.ready();
      // Once it shows the new price it has heard the change, and caches the price until the next.
      await shippingOf(thirdProcess);
      await setShippingCents(1500);
      expect(await eventually(async () => (await shippingOf(thirdProcess)) === 15)).toBe(true);

      const logged = vi.spyOn(console, 'info');
      proxy.silence('mango-shop cache listener');
      await setShippingCents(1600);
      const bound = healthCheck.everyMs + healthCheck.timeoutMs + 1000;
      expect(await eventually(async () => (await shippingOf(thirdProcess)) === 16, bound)).toBe(true);

      // Once it says so it listens again, and has dropped what it cached meanwhile: from then on
      // only a notification can bring the next price.
      const reconnected = () => logged.mock.calls.some(([line]) => String(line).includes('cache invalidation listener reconnected'));
      expect(await eventually(async () => reconnected(), 5000)).toBe(true);
      expect(proxy.opened('mango-shop cache listener')).toBe(2);
      await setShippingCents(1700);
      expect(await eventually(async () => (await shippingOf(thirdProcess)) === 17)).toBe(true);
    } finally {
      vi.restoreAllMocks();
      await thirdProcess.close();
      await database.close();
      await proxy.close();
    }
  });
});
