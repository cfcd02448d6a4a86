import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, type TestShop } from '../testing/test-app';
import { queryRows } from './client';
import { clientNaming, StatementNames } from './named-statements';
import { carts, products } from './schema';

describe('statement names', () => {
  it('names a query the second time it is seen, the same name ever after, and never a statement that is not a query', () => {
    const names = new StatementNames();
    const byUser = 'select "id" from "carts" where "carts"."user_id" = $1';
    expect(names.nameFor(byUser)).toBeUndefined();
    const name = names.nameFor(byUser);
    expect(name).toMatch(/^shop_\d+$/);
    expect(names.nameFor(byUser)).toBe(name);
    const other = 'update "products" set "stock" = $1 where "products"."id" = $2';
    names.nameFor(other);
    expect(names.nameFor(other)).not.toBe(name);
    for (const statement of ['create table t (id int)', 'set time zone $1']) {
      names.nameFor(statement);
      expect(names.nameFor(statement)).toBeUndefined();
    }
  });

  it('never gives a retired name to another text', () => {
    const names = new StatementNames();
    const texts = ['select $1::int as a', 'select $1::int as b', 'select $1::int as c'];
    const given = texts.slice(0, 2).map((text) => (names.nameFor(text), names.nameFor(text)));
    names.retire(texts[0]!);
    expect(names.nameFor(texts[0]!)).toBeUndefined();
    names.nameFor(texts[2]!);
    const third = names.nameFor(texts[2]!);
    expect(third).toBeDefined();
    expect(given).not.toContain(third);
  });

  it('stops naming new texts at its limit, and keeps the names it gave', () => {
    const names = new StatementNames();
    const first = 'select $1::int as n0';
    names.nameFor(first);
    const kept = names.nameFor(first);
    for (let i = 1; i < 400; i += 1) {
      names.nameFor(`select $1::int as n${i}`);
      names.nameFor(`select $1::int as n${i}`);
    }
    expect(names.nameFor('select $1::int as n399')).toBeUndefined();
    expect(names.nameFor(first)).toBe(kept);
  });
});

let shop: TestShop;
beforeAll(async () => {
  if (process.env.DATABASE_URL) shop = await createTestShop();
});
afterAll(async () => shop?.close());

describe.runIf(process.env.DATABASE_URL)('statements on PostgreSQL', () => {
  it('parses a query the shop repeats once per connection, and a one-off not at all', async () => {
    const prepared = await shop.database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i += 1) await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, 1000 + i));
      await tx.select({ name: products.name }).from(products).where(eq(products.name, 'once-only-in-this-test'));
      return queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`);
    });
    const statements = prepared.map((row) => row.statement);
    expect(statements).toContain('select "id" from "carts" where "carts"."user_id" = $1');
    expect(statements.filter((statement) => statement.includes('from "products"'))).toEqual([]);
  });

  it('runs a statement unnamed from the moment its kept plan no longer fits its table, after one failed run', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    const database = `mango_named_${process.pid}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`drop database if exists ${database}`);
    await admin.query(`create database ${database}`);
    url.pathname = `/${database}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2, Client: clientNaming(new StatementNames()) });
    // Dropping the database at the end ends connections the pool may still be closing.
    pool.on('error', () => undefined);
    try {
      await pool.query('create table boxes (id int primary key, left_count int)');
      await pool.query('insert into boxes values (1, 7)');
      const read = () => pool.query<{ left_count: number | string }>({ text: 'select left_count from boxes where id = $1' }, [1]);
      // Without values a text stays in the simple protocol, which runs several statements in one.
      for (let i = 0; i < 3; i += 1) await pool.query({ text: 'select 1; select left_count from boxes' }, []);
      const both = () => Promise.all([read(), read()]);
      // Seen once, then named, then kept on both connections.
      await both();
      await both();
      // A newer version's migration, from another process, while this one runs.
      const other = new pg.Client({ connectionString: url.toString() });
      await other.connect();
      await other.query('alter table boxes alter column left_count type bigint');
      await other.end();
      await expect(read()).rejects.toThrow('cached plan must not change result type');
      // The other connection's kept plan is stale too, but the statement now runs unnamed on both.
      expect((await both()).map((answer) => answer.rows)).toEqual([[{ left_count: '7' }], [{ left_count: '7' }]]);
    } finally {
      await pool.end();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  });
});
