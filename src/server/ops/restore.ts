import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { knownMigrations, openPglite, queryRows } from '../db/client';
import { lockDataDir, lockHolder } from '../db/data-dir-lock';
import { type BackupManifest, BackupError, readArchive } from './backup-archive';
import { databaseMember, pgConnection, pgTool, runPgTool } from './backup';
import { type RunQuery, tableDigests } from './table-digests';

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
    fs.renameSync(staging, target);
    return keptAside;
  } finally {
    release();
  }
}

async function restorePostgres(url: string, manifest: BackupManifest, dump: Buffer | undefined, force: boolean): Promise<void> {
  if (!dump) throw new BackupError('The backup is damaged: it has no PostgreSQL dump in it.');
  const tool = pgTool('pg_restore');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Could not connect to DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const { rows } = await client.query<{ tables: number }>(
      `select count(*)::int as tables from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'`,
    );
    const occupied = rows[0]!.tables > 0;
    if (occupied && !force) {
      throw new BackupError('The database at DATABASE_URL is not empty. Restore into an empty database, or add --force to replace the tables the backup holds.');
    }
    const { dbname, env } = pgConnection(url);
    // One transaction: a restore that fails part-way leaves the database as it was.
    const args = ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', ...(occupied ? ['--clean', '--if-exists'] : []), `--dbname=${dbname}`];
    await runPgTool(tool, args, env, dump);
    await client.query(`set time zone 'UTC'`);
    const run: RunQuery = async <T>(text: string) => (await client.query(text)).rows as T[];
    const wrong = mismatches(manifest.tables, await tableDigests(run));
    if (wrong.length) throw new BackupError(`The restored database does not match the backup in ${wrong.join(', ')}.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Delivered mail goes back into DATA_DIR/outbox/; a file already there by that name is the same mail. */
function restoreOutbox(dataDir: string, members: Map<string, Buffer>): number {
  let mails = 0;
  for (const [name, bytes] of members) {
    if (!name.startsWith('outbox/') || !name.endsWith('.eml')) continue;
    const file = path.join(dataDir, 'outbox', path.basename(name));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, bytes);
    mails += 1;
  }
  return mails;
}
