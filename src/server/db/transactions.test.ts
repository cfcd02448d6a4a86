import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { defaultSettings } from '../modules/settings/defaults';
import { quickShopper, testProduct } from '../testing/order-helpers';
import { createTestShop, openStaffShop, type StaffCall, type TestShop } from '../testing/test-app';
import { SharedHandleInTransactionError } from './client';
import { products } from './schema';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => {
  ({ shop, staff } = await openStaffShop());
});
afterAll(async () => shop?.close());

/** A hang is the failure these tests look for: give up after a while instead of waiting forever. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  return Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms).unref())]);
}

describe('inside a transaction only the transaction handle touches the database', () => {
  it('refuses a query on the shared handle inside a transaction, instead of waiting for itself', async () => {
    const { db } = shop.database;
    const attempt = db.transaction(async (tx) => {
      await tx.select().from(products).limit(1);
      await db.select().from(products).limit(1);
    });
    const error = await within(10_000, attempt).catch((caught: unknown) => caught);
    // Drizzle wraps the driver's error in its own; the refusal is its cause.
    expect((error as Error).cause).toBeInstanceOf(SharedHandleInTransactionError);
    // The database is still usable afterwards.
    expect(await within(10_000, db.select().from(products).limit(1))).toHaveLength(1);
  });

  it('lets the transaction handle and nested transactions through', async () => {
    const rows = await shop.database.db.transaction(async (tx) => tx.transaction(async (inner) => inner.select().from(products).limit(2)));
    expect(rows).toHaveLength(2);
  });

  it('places an order while staff save the settings, on the first try', async () => {
    const product = await testProduct(shop, { stock: 5 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const current = (await staff({ method: 'GET', url: '/api/admin/settings' })).json<typeof defaultSettings>();
    const [saved, placed] = await within(
      15_000,
      Promise.all([staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...current, siteName: 'Mango Shop' } }), shopper.order()]),
    );
    expect(saved.statusCode).toBe(200);
    expect(placed.statusCode).toBe(201);
    expect((await within(5_000, shop.app.inject({ method: 'GET', url: '/readyz' }))).statusCode).toBe(200);
  });

  it('places an order right after another process changed the settings (cache emptied by a notification)', async () => {
    const product = await testProduct(shop, { stock: 5 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    await shop.app.services.bus.publish('settings');
    const placed = await within(15_000, shopper.order());
    expect(placed.statusCode).toBe(201);
  });
});

describe('the quote and the order read the same settings', () => {
  it('prices shipping from settings saved a moment ago', async () => {
    const fresh = await createTestShop();
    try {
      const product = await testProduct(fresh, { stock: 5, priceCents: 1000 });
      const shopper = await quickShopper(fresh);
      await shopper.add(product.id, 1);
      await fresh.app.services.settings.update({ ...(await fresh.app.services.settings.stored()), shippingCents: 700 }, { userId: shopper.user.id, requestId: 'test' });
      const placed = await within(15_000, shopper.order());
      expect(placed.statusCode).toBe(201);
      expect(placed.json<{ order: { shipping: number; total: number } }>().order).toMatchObject({ shipping: 7, total: 17 });
    } finally {
      await fresh.close();
    }
  });
});

describe('notifications', () => {
  it('reach every listener of the channel once, and are refused inside a transaction', async () => {
    const { database } = shop;
    const heard: Array<[string, string]> = [];
    const channel = `test_channel_${Date.now()}`;
    await database.listen(channel, (payload) => heard.push(['first', payload]));
    await database.listen(channel, (payload) => heard.push(['second', payload]));
    await database.notify(channel, 'products');
    await database.notify(`${channel}_other`, 'ignored');
    await vi.waitFor(() => expect(heard).toHaveLength(2), { timeout: 5000, interval: 20 });
    // Nothing more arrives later: each listener heard it exactly once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.sort()).toEqual([
      ['first', 'products'],
      ['second', 'products'],
    ]);
    const attempt = database.db.transaction(async () => {
      await database.notify(channel, 'inside');
    });
    const error = await within(10_000, attempt).catch((caught: unknown) => caught);
    expect(error instanceof SharedHandleInTransactionError || (error as Error).cause instanceof SharedHandleInTransactionError).toBe(true);
  });

  // The embedded database's are handed to this process's listeners directly, each one.
  it.runIf(process.env.DATABASE_URL)('go out once for the same news asked for again before it left, and again when asked after', async () => {
    const { database } = shop;
    const heard: string[] = [];
    const channel = `test_channel_once_${Date.now()}`;
    await database.listen(channel, (payload) => heard.push(payload));
    // Asked for in one go: the first waits for a connection while the others are asked.
    await Promise.all([database.notify(channel, 'products'), database.notify(channel, 'products'), database.notify(channel, 'settings'), database.notify(channel, 'products')]);
    await vi.waitFor(() => expect(heard).toHaveLength(2), { timeout: 5000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.sort()).toEqual(['products', 'settings']);
    await database.notify(channel, 'products');
    await vi.waitFor(() => expect(heard).toHaveLength(3), { timeout: 5000, interval: 20 });
  });
});
