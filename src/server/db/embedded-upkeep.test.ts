import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BackgroundWork } from '../background-work';
import { preOrderedBoxes } from '../modules/orders/waiting-pre-orders';
import { newCheckoutKey, quickShopper, testProduct, testShipping } from '../testing/order-helpers';
import { createTestShop, type TestShop } from '../testing/test-app';
import { queryRows } from './client';
import { upkeepEmbedded, upkeepOf } from './embedded-upkeep';

describe('what a table needs, by autovacuum’s default thresholds', () => {
  it('vacuums past 50 dead rows and a fifth of its rows, past 1000 inserts and a fifth, or when old; analyzes past 50 changes and a tenth, and a table never counted', () => {
    const counted = { knownRows: 1000, deadRows: 0, insertedSinceVacuum: 0, changedSinceAnalyze: 0, xidAge: 1000 };
    expect(upkeepOf(counted)).toBeNull();
    expect(upkeepOf({ ...counted, deadRows: 250 })).toBeNull();
    expect(upkeepOf({ ...counted, deadRows: 251 })).toBe('vacuum');
    expect(upkeepOf({ ...counted, insertedSinceVacuum: 1200 })).toBeNull();
    expect(upkeepOf({ ...counted, insertedSinceVacuum: 1201 })).toBe('vacuum');
    expect(upkeepOf({ ...counted, xidAge: 200_000_001 })).toBe('vacuum');
    expect(upkeepOf({ ...counted, changedSinceAnalyze: 150 })).toBeNull();
    expect(upkeepOf({ ...counted, changedSinceAnalyze: 151 })).toBe('analyze');
    expect(upkeepOf({ ...counted, deadRows: 251, changedSinceAnalyze: 151 })).toBe('vacuum');
    expect(upkeepOf({ ...counted, knownRows: -1, changedSinceAnalyze: 3 })).toBe('analyze');
    expect(upkeepOf({ ...counted, knownRows: -1 })).toBe('analyze');
    expect(upkeepOf({ ...counted, knownRows: 0 })).toBeNull();
  });
});

interface TableRow extends Record<string, unknown> {
  relname: string;
  reltuples: number | string;
  n_dead_tup: number | string;
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('the embedded database’s upkeep', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop();
  });
  afterAll(async () => shop?.close());

  /** The counts the upkeep reads, flushed first: PostgreSQL hands a session's counts over at most once a second. */
  async function tables(): Promise<Map<string, TableRow>> {
    const { db } = shop.database;
    await db.execute(sql`select pg_stat_force_next_flush()`);
    await db.execute(sql`select 1`);
    const rows = await queryRows<TableRow>(db, sql`select s.relname, c.reltuples, s.n_dead_tup from pg_stat_user_tables s join pg_class c on c.oid = s.relid`);
    return new Map(rows.map((row) => [row.relname, row]));
  }

  it('counts a rush’s orders for the planner and clears the carts’ dead rows, then has nothing to do', async () => {
    const variety = await testProduct(shop, { name: 'Upkeep Kesar', stock: 0, isPreOrder: true, preOrderLimit: 1000, expectedAvailabilityDate: '2027-01-20' });
    for (let placed = 0; placed < 120; placed += 1) {
      const shopper = await quickShopper(shop, 'upkeep');
      await shopper.add(variety.id, 1);
      const answer = await shopper.call({ method: 'POST', url: '/api/orders', payload: { shipping: testShipping, idempotencyKey: newCheckoutKey() } });
      expect(answer.statusCode).toBe(201);
    }
    const before = await tables();
    expect(Number(before.get('orders')!.reltuples), 'never analyzed').toBe(-1);
    expect(Number(before.get('cart_lines')!.n_dead_tup)).toBeGreaterThanOrEqual(120);

    const steps = await upkeepEmbedded(shop.database);
    const done = new Map(steps.map((step) => [step.table, step.action]));
    expect(done.get('orders')).toBe('analyze');
    expect(done.get('order_lines')).toBe('analyze');
    expect(done.get('cart_lines')).toBe('vacuum');
    const after = await tables();
    expect(Number(after.get('orders')!.reltuples)).toBe(120);
    expect(Number(after.get('cart_lines')!.n_dead_tup)).toBe(0);
    expect(await upkeepEmbedded(shop.database)).toEqual([]);
    // The count is the same, read as the planner now plans it.
    expect((await preOrderedBoxes(shop.database.db, variety.id)).get(variety.id)).toBe(120);
  }, 60_000);

  it('vacuums a table only ever added to once 1000 rows and a fifth have come since its last vacuum', async () => {
    const { db } = shop.database;
    await db.execute(sql`insert into rate_limits (key, window_start, hits) select 'upkeep-' || n, now(), 1 from generate_series(1, 1100) as n`);
    await tables();
    const steps = await upkeepEmbedded(shop.database);
    expect(steps.find((step) => step.table === 'rate_limits')?.action).toBe('vacuum');
    await tables();
    expect((await upkeepEmbedded(shop.database)).find((step) => step.table === 'rate_limits')).toBeUndefined();
  });

  it('runs in the background work of a shop on the embedded database, soon after it starts', async () => {
    const fresh = await createTestShop();
    const background = new BackgroundWork(fresh.app, { firstSweepAfterMs: 60_000, firstUpkeepAfterMs: 0 }, fresh.database);
    try {
      const known = async () => {
        const [row] = await queryRows<{ reltuples: number | string }>(fresh.database.db, sql`select reltuples from pg_class where relname = 'products'`);
        return Number(row!.reltuples);
      };
      // The seeded catalogue, as a new shop opens with it: never counted for the planner.
      expect(await known()).toBe(-1);
      await background.start();
      await vi.waitFor(async () => expect(await known()).toBeGreaterThan(0), { timeout: 10_000, interval: 100 });
    } finally {
      await background.stop();
      await fresh.close();
    }
  });
});
