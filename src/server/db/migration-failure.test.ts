import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../testing/empty-database';
import { addMigration, migrationsCopy } from '../testing/migration-folders';
import { knownMigrations, MigrationError, queryRows } from './client';
import { seedIfEmpty } from './seed/seed-shop';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-migrations-'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** The release's migrations, then one that works and one that fails part-way: the next release gone wrong. */
function migrationsWithABadOne(): string {
  return migrationsCopy(folder, (journal) => {
    const probe = addMigration(folder, journal, '9001_add_probe', 'ALTER TABLE "products" ADD COLUMN "upgrade_probe" integer;');
    return addMigration(folder, probe, '9002_fails_half_way', 'UPDATE "products" SET "upgrade_probe" = 1;\n--> statement-breakpoint\nSELECT 1 / (SELECT count(*) - count(*) FROM "products");');
  });
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
