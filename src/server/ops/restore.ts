import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { knownMigrations, openPglite, queryRows } from '../db/client';
import { lockDataDir, lockHolder } from '../db/data-dir-lock';
import { type BackupManifest, BackupError, readArchive } from './backup-archive';
import { databaseMember, pgConnection, pgTool, runPgTool } from './backup';
import { digestSql, type RunQuery, tableDigests } from './table-digests';
import { privateFileMode, privateFolderSync } from '../lib/private-files';

export interface RestoreOptions {
  archive: Buffer;
  /** Restore into this PostgreSQL database; unset: into the embedded database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Replace a database that is not empty (the embedded one is kept aside, not deleted). */
  force?: boolean;
  now?: Date;
}

export interface RestoreSummary {
  manifest: BackupManifest;
  rows: number;
  mails: number;
  /** Where the embedded database that was replaced now is, when one was. */
  keptAside?: string;
}

/**
 * Restores a backup made by `npm run backup` into an empty place: the embedded database's folder,
 * or a PostgreSQL database. The archive is read and checked whole first; a damaged one changes
 * nothing. The restored database is checked table by table against the backup's manifest before
 * it takes the place of anything.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const { manifest, members } = readArchive(options.archive);
  const known = knownMigrations();
  if (manifest.migrations > known) {
    throw new BackupError(`This backup comes from a newer Mango Shop (${manifest.migrations} database migrations; this one knows ${known}). Update the shop first, then restore.`);
  }
  const rows = Object.values(manifest.tables).reduce((sum, table) => sum + table.rows, 0);
  if (manifest.kind === 'pglite') {
    if (options.databaseUrl) {
      throw new BackupError('This backup is of the embedded database: restore it with DATABASE_URL unset, into DATA_DIR. (A backup of a shop on PostgreSQL restores into PostgreSQL.)');
    }
    const keptAside = await restoreEmbedded(options, manifest, members.get(databaseMember.pglite));
    return { manifest, rows, mails: restoreOutbox(options.dataDir, members), keptAside };
  }
  if (!options.databaseUrl) {
    throw new BackupError('This backup is of a shop on PostgreSQL: set DATABASE_URL to the database to restore it into (an empty one, or add --force).');
  }
  await restorePostgres(options.databaseUrl, manifest, members.get(databaseMember.postgres), Boolean(options.force));
  return { manifest, rows, mails: restoreOutbox(options.dataDir, members) };
}

function mismatches(expected: BackupManifest['tables'], found: BackupManifest['tables']): string[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(found)]);
  return [...names]
    .filter((name) => expected[name]?.rows !== found[name]?.rows || expected[name]?.digest !== found[name]?.digest)
    .map((name) => `${name} (backup: ${expected[name]?.rows ?? 'none'} rows, restored: ${found[name]?.rows ?? 'none'})`);
}

async function restoreEmbedded(options: RestoreOptions, manifest: BackupManifest, data: Buffer | undefined): Promise<string | undefined> {
  if (!data) throw new BackupError('The backup is damaged: it has no embedded database in it.');
  const holder = lockHolder(options.dataDir);
  if (holder) throw new BackupError(`The shop is running on ${options.dataDir} (pid ${holder}). Stop it first: a restore replaces its database.`);
  const release = lockDataDir(options.dataDir);
  try {
    const target = path.join(options.dataDir, 'pglite');
    const occupied = fs.existsSync(target) && fs.readdirSync(target).length > 0;
    if (occupied && !options.force) {
      throw new BackupError(`${target} already holds a database. Restore into an empty DATA_DIR, or add --force to replace it (the current one is kept beside it, not deleted).`);
    }
    let tarball: Buffer;
    try {
      tarball = gunzipSync(data);
    } catch {
      throw new BackupError('The backup is damaged: its embedded database does not unpack.');
    }
    const staging = `${target}.restoring`;
    fs.rmSync(staging, { recursive: true, force: true });
    try {
      const database = await openPglite(staging, new Blob([new Uint8Array(tarball)]));
      try {
        const run: RunQuery = async <T>(text: string) => queryRows<T>(database.db, sql.raw(text));
        const found = await tableDigests(run);
        const wrong = mismatches(manifest.tables, found);
        if (wrong.length) throw new BackupError(`The restored database does not match the backup in ${wrong.join(', ')}: nothing was changed.`);
      } finally {
        await database.close();
      }
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      if (error instanceof BackupError) throw error;
      throw new BackupError(`The embedded database in the backup could not be opened (${error instanceof Error ? error.message : String(error)}): nothing was changed.`);
    }
    let keptAside: string | undefined;
    if (occupied) {
      keptAside = `${target}.before-restore-${(options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(target, keptAside);
    } else {
      fs.rmSync(target, { recursive: true, force: true });
    }
    try {
      fs.renameSync(staging, target);
    } catch (error) {
      if (keptAside) fs.renameSync(keptAside, target);
      throw new BackupError(`The restored database could not be put in place (${error instanceof Error ? error.message : String(error)}): the database that was there is back.`);
    }
    return keptAside;
  } finally {
    release();
  }
}

/**
 * Restores on PostgreSQL in one transaction that also checks the result: psql runs what
 * pg_restore writes, after dropping what a forced restore replaces and before a check of every
 * table against the manifest, all between one BEGIN and COMMIT. Anything that fails, the check
 * included, rolls the whole of it back.
 */
async function restorePostgres(url: string, manifest: BackupManifest, dump: Buffer | undefined, force: boolean): Promise<void> {
  if (!dump) throw new BackupError('The backup is damaged: it has no PostgreSQL dump in it.');
  const restoreTool = pgTool('pg_restore');
  const psql = pgTool('psql');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Could not connect to DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  let occupied: boolean;
  try {
    const { rows } = await client.query<{ tables: number }>(
      `select count(*)::int as tables from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'`,
    );
    occupied = rows[0]!.tables > 0;
  } finally {
    await client.end().catch(() => undefined);
  }
  if (occupied && !force) {
    throw new BackupError('The database at DATABASE_URL is not empty. Restore into an empty database, or stop every shop process on it and add --force to replace what it holds.');
  }
  const { dbname, env } = pgConnection(url);
  const script = await runPgTool(restoreTool, ['--no-owner', '--no-privileges', '--file=-'], env, dump);
  const input = Buffer.concat([Buffer.from(occupied ? dropShopObjects : ''), script, Buffer.from(`\n${checkAgainst(manifest)}\n`)]);
  try {
    await runPgTool(psql, ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', '--file=-', `--dbname=${dbname}`], { ...env, PGOPTIONS: '-c client_min_messages=warning' }, input);
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    const mismatch = /mango-restore-mismatch: ([^\n]*)/.exec(said);
    if (mismatch) throw new BackupError(`The restored database did not match the backup in ${mismatch[1]}: the restore was rolled back, and nothing changed.`);
    throw new BackupError(`The restore failed and was rolled back, so nothing changed: ${said}`);
  }
}

/** What a forced restore replaces: the shop's tables, sequences, views and types, and drizzle's record of migrations. */
const dropShopObjects = `
DROP SCHEMA IF EXISTS drizzle CASCADE;
DO $drop$ DECLARE item record; BEGIN
  FOR item IN SELECT c.relname, c.relkind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
      -- Tables first: the sequences and views that belong to them go with them.
      ORDER BY c.relkind NOT IN ('r', 'p') LOOP
    EXECUTE pg_catalog.format('DROP %s IF EXISTS public.%I CASCADE',
      CASE item.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, item.relname);
  END LOOP;
  FOR item IN SELECT t.typname FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' AND t.typtype IN ('e', 'd') LOOP
    EXECUTE pg_catalog.format('DROP TYPE IF EXISTS public.%I CASCADE', item.typname);
  END LOOP;
END $drop$;
`;

/** A check, inside the restore's transaction, that every table holds what the manifest says and that there are no others. */
function checkAgainst(manifest: BackupManifest): string {
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const tables = Object.entries(manifest.tables);
  const checks = tables.map(
    ([name, expected]) => `  EXECUTE ${literal(digestSql(name))} INTO found;
  IF found.rows <> ${Number(expected.rows)} OR found.digest <> ${literal(expected.digest)} THEN
    RAISE EXCEPTION 'mango-restore-mismatch: % (backup: % rows, restored: % rows)', ${literal(name)}, ${Number(expected.rows)}, found.rows;
  END IF;`,
  );
  return `DO $check$ DECLARE found record; others integer; BEGIN
  PERFORM pg_catalog.set_config('TimeZone', 'UTC', true);
${checks.join('\n')}
  SELECT pg_catalog.count(*) INTO others FROM information_schema.tables
    WHERE table_schema IN ('public', 'drizzle') AND table_type = 'BASE TABLE' AND (table_schema || '.' || table_name) <> ALL (ARRAY[${tables.map(([name]) => literal(name)).join(', ') || "''"}]::text[]);
  IF others > 0 THEN RAISE EXCEPTION 'mango-restore-mismatch: % tables the backup does not have', others; END IF;
END $check$;`;
}

/** Delivered mail goes back into DATA_DIR/outbox/; a file already there by that name is the same mail. */
function restoreOutbox(dataDir: string, members: Map<string, Buffer>): number {
  let mails = 0;
  for (const [name, bytes] of members) {
    if (!name.startsWith('outbox/') || !name.endsWith('.eml')) continue;
    const file = path.join(dataDir, 'outbox', path.basename(name));
    privateFolderSync(path.dirname(file));
    if (!fs.existsSync(file)) fs.writeFileSync(file, bytes, { mode: privateFileMode });
    mails += 1;
  }
  return mails;
}
