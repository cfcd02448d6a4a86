import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../testing/empty-database';
import { knownMigrations, MigrationError, queryRows } from './client';
import { seedIfEmpty } from './seed/seed-shop';

const migrations = fileURLToPath(new URL('./migrations', import.meta.url));
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-migrations-'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** The release's migrations, then one that works and one that fails part-way: the next release gone wrong. */
function migrationsWithABadOne(): string {
  fs.cpSync(migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }> };
  const last = journal.entries.at(-1)!;
  const added = [
    { tag: '9001_add_probe', sql: 'ALTER TABLE "products" ADD COLUMN "upgrade_probe" integer;' },
    { tag: '9002_fails_half_way', sql: 'UPDATE "products" SET "upgrade_probe" = 1;\n--> statement-breakpoint\nSELECT 1 / (SELECT count(*) - count(*) FROM "products");' },
  ];
  added.forEach((migration, index) => {
    fs.writeFileSync(path.join(folder, `${migration.tag}.sql`), migration.sql);
    journal.entries.push({ idx: last.idx + index + 1, version: last.version, when: last.when + index + 1, tag: migration.tag, breakpoints: true });
  });
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe('a migration that fails part-way', () => {
  it('leaves the database as it was, and says which migration failed and why', async () => {
    const { database, drop } = await emptyDatabase();
    cleanups.push(drop);
    await database.migrate((db) => seedIfEmpty(db).then(() => undefined));
    const state = async () => ({
      migrations: (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]!.n,
      products: (await queryRows<{ n: number; stock: number }>(database.db, sql`select count(*)::int as n, sum(stock)::int as stock from products`))[0],
      probe: (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from information_schema.columns where table_name = 'products' and column_name = 'upgrade_probe'`))[0]!.n,
    });
    const before = await state();
    expect(before.migrations).toBe(knownMigrations());

    const failure = await database.migrate(undefined, { migrationsFolder: migrationsWithABadOne() }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toMatch(/^The database migration 9002_fails_half_way \(migrations\/9002_fails_half_way\.sql\) failed: division by zero\. No migration of this start was kept/);
    // The first new migration worked and the second did half its work: neither is kept.
    expect(await state()).toEqual(before);
    // The shop still runs on it with this release's migrations.
    await database.migrate();
    expect(await state()).toEqual(before);
  }, 60_000);
});
