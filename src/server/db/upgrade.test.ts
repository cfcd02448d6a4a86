import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { MemoryMailer } from '../lib/mail';
import { emptyDatabase } from '../testing/empty-database';
import { migrationsCopy } from '../testing/migration-folders';
import { testShipping } from '../testing/order-helpers';
import { knownMigrations, queryRows } from './client';
import { importSequences, importTables } from './table-rows';

/**
 * A release's shop, as scripts/upgrade-fixture.ts pictured it: the rows its migrations and its code
 * wrote (orders through every status, a pre-order, a claim with photos, a moved delivery day, a
 * full cart), and what its API answered to shoppers and staff.
 */
const release = 'e432aa5';
const fixture = fileURLToPath(new URL(`./upgrade-fixtures/${release}/`, import.meta.url));
const made = JSON.parse(fs.readFileSync(path.join(fixture, 'release.json'), 'utf8')) as { migrations: number };
const recorded = JSON.parse(fs.readFileSync(path.join(fixture, 'answers.json'), 'utf8')) as {
  recordedAt: string;
  sessions: Record<string, string>;
  answers: Array<{ as: string; url: string; status: number; body?: unknown; sha256?: string }>;
};
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-upgrade-'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The migrations the release had: this repository's first ones (a migration is never edited once released). */
function releaseMigrations(count: number): string {
  return migrationsCopy(path.join(work, 'migrations'), (journal) => ({ ...journal, entries: journal.entries.slice(0, count) }));
}

/** Everything the release showed is shown the same now; what this release adds beside it is allowed. */
function expectShownAsBefore(before: unknown, now: unknown, where: string): void {
  if (Array.isArray(before)) {
    expect(Array.isArray(now), where).toBe(true);
    expect((now as unknown[]).length, `${where}: how many`).toBe(before.length);
    before.forEach((item, index) => expectShownAsBefore(item, (now as unknown[])[index], `${where}[${index}]`));
  } else if (before && typeof before === 'object') {
    expect(now && typeof now === 'object', where).toBe(true);
    for (const [key, value] of Object.entries(before)) expectShownAsBefore(value, (now as Record<string, unknown>)[key], `${where}.${key}`);
  } else {
    expect(now, where).toEqual(before);
  }
}

describe(`this release started on the database of release ${release}`, () => {
  it('keeps every row, shows shoppers and staff their orders, pre-orders, claims, photos and delivery days as before, and takes the next order', async () => {
    // The answers were recorded at a moment (a claim's window was open, a delivery day ahead): the
    // test runs from that moment on, whatever today is.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(recorded.recordedAt), shouldAdvanceTime: true });
    expect(made.migrations).toBeLessThan(knownMigrations());
    const { database, drop } = await emptyDatabase();
    cleanups.push(drop);
    await database.migrate(undefined, { migrationsFolder: releaseMigrations(made.migrations) });
    const tables = JSON.parse(fs.readFileSync(path.join(fixture, 'tables.json'), 'utf8')) as Record<string, unknown[]>;
    await importTables(database.db, tables);
    await importSequences(database.db, JSON.parse(fs.readFileSync(path.join(fixture, 'sequences.json'), 'utf8')) as Record<string, { value: number; called: boolean }>);
    // The recorded sessions would expire a month after the picture was taken: the test keeps them.
    await database.db.execute(sql`update sessions set expires_at = now() + interval '1 year'`);

    // This release's start: its newer migrations, then the shop.
    await database.migrate();
    const count = async (table: string) => (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;
    for (const [table, rows] of Object.entries(tables)) expect(await count(table), table).toBe(rows.length);

    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: work });
    const app = await buildApp({ config, database, mailTransport: new MemoryMailer() });
    cleanups.push(() => app.close());
    for (const answer of recorded.answers) {
      const response = await app.inject({ method: 'GET', url: answer.url, headers: { cookie: `mango_session=${recorded.sessions[answer.as]}` } });
      expect(response.statusCode, `${answer.as} GET ${answer.url}`).toBe(answer.status);
      if (answer.sha256) expect(createHash('sha256').update(response.rawPayload).digest('hex'), answer.url).toBe(answer.sha256);
      else expectShownAsBefore(answer.body, response.json(), `${answer.as} GET ${answer.url}`);
    }

    // And the shop goes on: a shopper of the old release orders again, and gets the next number.
    const kiri = { cookie: `mango_session=${recorded.sessions.kiri}` };
    const me = (await app.inject({ method: 'GET', url: '/api/me', headers: kiri })).json<{ id: number }>();
    const box = (await app.inject({ method: 'GET', url: '/api/products' })).json<Array<{ id: number; stock: number; isPreOrder: boolean }>>().find((p) => !p.isPreOrder && p.stock > 0)!;
    expect((await app.inject({ method: 'POST', url: `/api/cart/${me.id}/items`, headers: kiri, payload: { productId: box.id, quantity: 1 } })).statusCode).toBe(200);
    // Bank transfer is taken once the shop has an account number, which the owner now sets.
    const settings = await app.services.settings.stored();
    await app.services.settings.update({ ...settings, bankTransfer: { ...settings.bankTransfer, accountNumber: '06-0123-0456789-00' } }, { userId: me.id, requestId: 'upgrade-test' });
    const dates = (await app.inject({ method: 'GET', url: '/api/delivery/dates?region=Auckland', headers: kiri })).json<{ dates: Array<{ date: string; state: { available: boolean } }> }>();
    const placed = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: kiri,
      payload: { shipping: testShipping, idempotencyKey: 'after-the-upgrade-0001', deliveryDate: dates.dates.find((d) => d.state.available)!.date },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const numbers = (tables.orders as Array<{ number: string }>).map((order) => Number(order.number.slice(3)));
    expect(placed.json<{ order: { number: string } }>().order.number).toBe(`MS-${Math.max(...numbers) + 1}`);
  }, 60_000);
});
