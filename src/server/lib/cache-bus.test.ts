import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../contracts/product';
import { buildApp } from '../app';
import { MemoryMailer } from './mail';
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
