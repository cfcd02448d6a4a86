import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, queryRows } from './client';
import { describedWhenRun, maxNamedStatements, NamedStatements } from './pglite-statements';

let client: PGlite;
let statements: NamedStatements;

beforeAll(async () => {
  client = await PGlite.create('memory://');
  await client.exec(`
    create table boxes (id serial primary key, name text not null unique, grams int, organic boolean, packed_on date, seen_at timestamptz, notes jsonb);
    insert into boxes (name, grams, organic, packed_on, seen_at, notes) values
      ('Alphonso', 3000, true, '2026-11-20', '2026-11-20T01:02:03Z', '{"grade":"A"}'),
      ('Kesar', 2500, false, null, null, null);
  `);
  statements = new NamedStatements(client);
});
afterAll(async () => client?.close());

/** The statements the database holds parsed under a name, by their text. */
async function namedInDatabase(): Promise<string[]> {
  return (await client.query<{ statement: string }>(`select statement from pg_prepared_statements where name like 'mango\\_%'`)).rows.map((row) => row.statement);
}

describe('named statements on the embedded database', () => {
  it('answers exactly what PGlite\u2019s own query answers, for each kind of value in and out', async () => {
    const cases: Array<[string, unknown[], { rowMode?: 'array' | 'object' }?]> = [
      ['select * from boxes where grams > $1 order by id', [0]],
      ['select * from boxes where name = $1', ['Alphonso'], { rowMode: 'array' }],
      ['select id from boxes where organic = $1', [false]],
      ['select name from boxes where packed_on = $1', [new Date('2026-11-20T00:00:00Z')]],
      ['select name from boxes where seen_at < $1', [new Date('2026-11-21T00:00:00Z')]],
      ['select name from boxes where notes @> $1', [{ grade: 'A' }]],
      ['select $1::text as nothing, $2::int as n, $3::bigint as big', [null, 7, 9007199254740993n]],
      ['select name from boxes where id = $1', [404]],
      ['update boxes set grams = grams where grams > $1', [0]],
      ['select count(*)::int as n from boxes', []],
    ];
    for (const [text, params, options] of cases) {
      const own = await client.query(text, params, options);
      // Twice: the first run parses the statement, the second reuses it.
      expect(await statements.query(text, params, options, false), text).toEqual(own);
      expect(await statements.query(text, params, options, false), text).toEqual(own);
    }
    const inserted = await statements.query<{ id: number }>('insert into boxes (name, grams) values ($1, $2) returning id, name', ['Dasheri', 2000], undefined, false);
    expect(inserted).toMatchObject({ rows: [{ name: 'Dasheri' }], affectedRows: 1, fields: [{ name: 'id' }, { name: 'name' }] });
  });

  it('parses a statement once and runs it again by name', async () => {
    const text = 'select name from boxes where grams >= $1 order by name';
    for (const grams of [1000, 2600, 3000]) await statements.query(text, [grams], undefined, false);
    expect((await namedInDatabase()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('fails as PGlite fails, names the statement on the error, and keeps working after', async () => {
    const text = 'insert into boxes (name) values ($1)';
    const failed = await statements.query(text, ['Alphonso'], undefined, false).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: '23505', constraint: 'boxes_name_key', query: text, params: ['Alphonso'] });
    const kept = statements.size;
    await expect(statements.query('selec name from boxes', [], undefined, false)).rejects.toMatchObject({ code: '42601' });
    expect(statements.size).toBe(kept);
    expect((await statements.query(text, ['Totapuri'], undefined, false)).affectedRows).toBe(1);
  });

  it('keeps a statement parsed in a transaction that rolled back, and refuses inside an aborted one', async () => {
    const text = 'select grams from boxes where name = $1';
    await client.transaction(async (tx) => {
      await statements.query(text, ['Kesar'], undefined, true);
      await tx.rollback();
    });
    expect(await namedInDatabase()).toContain(text);
    expect((await statements.query<{ grams: number }>(text, ['Kesar'], undefined, false)).rows).toEqual([{ grams: 2500 }]);
    const aborted = await client
      .transaction(async () => {
        await expect(statements.query('select 1 / $1::int', [0], undefined, true)).rejects.toMatchObject({ code: '22012' });
        await expect(statements.query(text, ['Kesar'], undefined, true)).rejects.toMatchObject({ code: '25P02' });
      })
      .catch((error: unknown) => error);
    expect(aborted).toMatchObject({ code: '25P02' });
  });

  it('delivers a notification sent by a named statement', async () => {
    const heard: string[] = [];
    await client.listen('named_statements_test', (payload) => heard.push(payload));
    await statements.query('select pg_notify($1, $2)', ['named_statements_test', 'ripe'], undefined, false);
    await statements.query('select pg_notify($1, $2)', ['named_statements_test', 'riper'], undefined, false);
    expect(heard).toEqual(['ripe', 'riper']);
  });

  it('parses again a kept statement the database lost or whose table changed shape', async () => {
    const text = 'select * from boxes where id = $1';
    expect((await statements.query(text, [1], undefined, false)).fields.map((field) => field.name)).not.toContain('ripe_on');
    await client.exec('alter table boxes add column ripe_on date');
    const changed = await statements.query(text, [1], undefined, false);
    expect(changed.fields.map((field) => field.name)).toContain('ripe_on');
    await client.exec('deallocate all');
    expect((await statements.query<{ name: string }>(text, [1], undefined, false)).rows[0]!.name).toBe('Alphonso');
    await client.exec('alter table boxes drop column ripe_on');
  });

  it('tells FETCH and EXECUTE from other statements, past comments, in one pass', () => {
    for (const text of ['fetch 1 from early', '  FETCH next from c', '-- note\rexecute plan(1)', '/* a /* nested */ comment */ fetch all in c', '\n--x\n/**/Execute s']) expect(describedWhenRun(text), text).toBe(true);
    for (const text of ['select fetch', 'fetched', '/* fetch */ select 1', '-- execute\nselect 1', '/* unclosed fetch']) expect(describedWhenRun(text), text).toBe(false);
    const started = performance.now();
    expect(describedWhenRun(`${'/**/'.repeat(5000)}/* x`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('answers a cursor\u2019s rows with the columns of the cursor open at the time', async () => {
    for (const [columns, expected] of [['name, grams', { name: 'Alphonso', grams: 3000 }], ['id', { id: 1 }]] as const) {
      await client.transaction(async () => {
        await statements.query(`declare early cursor for select ${columns} from boxes order by id`, [], undefined, true);
        const fetched = await statements.query('fetch 1 from early', [], undefined, true);
        expect(fetched.rows).toEqual([expected]);
        expect(fetched.fields.map((field) => field.name)).toEqual(Object.keys(expected));
      });
    }
  });

  it('keeps at most so many statements, closing the least recently used in the database too', async () => {
    const own = await PGlite.create('memory://');
    try {
      const kept = new NamedStatements(own);
      const inDatabase = async () => (await own.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((row) => row.statement);
      const first = 'select 0 as n';
      await kept.query(first, [], undefined, false);
      for (let n = 1; n <= maxNamedStatements + 5; n += 1) {
        await kept.query(`select ${n} as n`, [], undefined, false);
        // The first stays in use, so it is never the one closed.
        if (n % 100 === 0) await kept.query(first, [], undefined, false);
      }
      expect(kept.size).toBe(maxNamedStatements);
      // The last one's parse closed the one before it; the database holds what is kept.
      expect(await inDatabase()).toHaveLength(maxNamedStatements);
      expect(await inDatabase()).toContain(first);
      expect(await inDatabase()).not.toContain('select 1 as n');
      expect(await inDatabase()).toContain(`select ${maxNamedStatements + 5} as n`);
      await kept.forgetAll();
      expect(kept.size).toBe(0);
      expect(await inDatabase()).toEqual([]);
      expect((await kept.query<{ n: number }>('select 1 as n', [], undefined, false)).rows).toEqual([{ n: 1 }]);
      await own.close();
      await expect(kept.query('select 1 as n', [], undefined, false)).rejects.toThrow('PGlite is closed');
    } finally {
      if (!own.closed) await own.close();
    }
  });
});

describe('the shop\u2019s embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite(undefined);
    await database.migrate();
  });
  afterAll(async () => database?.close());

  it('runs drizzle\u2019s queries as named statements, in and out of transactions', async () => {
    await database.db.execute(sql`select count(*)::int as n from products where price_cents > ${0}`);
    await database.db.execute(sql`select count(*)::int as n from products where price_cents > ${1}`);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select count(*)::int as n from products where price_cents >= ${1}`);
    });
    const named = (await queryRows<{ statement: string }>(database.db, sql.raw(`select statement from pg_prepared_statements where name like 'mango\\_%'`))).map((row) => row.statement);
    // Each text once, however often it ran: outside the transaction and inside it.
    expect(named.filter((statement) => statement === 'select count(*)::int as n from products where price_cents > $1')).toHaveLength(1);
    expect(named.filter((statement) => statement === 'select count(*)::int as n from products where price_cents >= $1')).toHaveLength(1);
  });
});
