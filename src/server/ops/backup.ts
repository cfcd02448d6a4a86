import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import pg from 'pg';
import type { Database } from '../db/client';
import { type Archive, type BackupManifest, BackupError, backupFormat, writeArchive } from './backup-archive';
import { migrationsApplied, type RunQuery, tableDigests } from './table-digests';

const gzipAsync = promisify(gzip);

/** The members that hold the database, by kind. */
export const databaseMember = { pglite: 'database/pglite.tar.gz', postgres: 'database/postgres.pgdump' } as const;
/** Mail delivered into DATA_DIR/outbox/ (no SMTP_URL): the shop's only copy of it. */
const outboxMember = 'outbox/';

/**
 * A whole backup of a running shop as one archive: the database in one consistent instant, and
 * the mail the shop delivered into its outbox folder. On the embedded database the copy is taken
 * by the process that owns it; on PostgreSQL, by `pg_dump` in a snapshot whose rows are counted
 * and digested in the same snapshot.
 */
export async function makeBackup(options: { database?: Database; databaseUrl?: string; dataDir: string; now?: Date }): Promise<Archive> {
  const createdAt = (options.now ?? new Date()).toISOString();
  const members: Array<{ name: string; bytes: Uint8Array }> = [];
  let manifest: Omit<BackupManifest, 'files'>;
  if (options.databaseUrl) {
    const dumped = await dumpPostgres(options.databaseUrl);
    members.push({ name: databaseMember.postgres, bytes: dumped.data });
    manifest = { format: backupFormat, kind: 'postgres', createdAt, migrations: dumped.migrations, tables: dumped.tables };
  } else {
    const snapshot = await options.database?.snapshot?.();
    if (!snapshot) throw new Error('makeBackup needs the embedded database or a DATABASE_URL');
    // Compressed after the connection's turn, on the thread pool: requests are not held for it.
    members.push({ name: databaseMember.pglite, bytes: await gzipAsync(snapshot.data, { level: 6 }) });
    manifest = { format: backupFormat, kind: 'pglite', createdAt, migrations: snapshot.migrations, tables: snapshot.tables };
  }
  members.push(...outboxFiles(options.dataDir));
  return writeArchive(manifest, members);
}

function outboxFiles(dataDir: string): Array<{ name: string; bytes: Uint8Array }> {
  const folder = path.join(dataDir, 'outbox');
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.eml') && Buffer.byteLength(name) <= 90)
    .sort()
    .map((name) => ({ name: `${outboxMember}${name}`, bytes: fs.readFileSync(path.join(folder, name)) }));
}

/**
 * Writes an archive to `file` whole or not at all: into a file under another name, synced, then
 * renamed. A failure (a full disk) removes the partial file and is thrown.
 */
export async function writeWhole(file: string, archive: Archive | AsyncIterable<Buffer>): Promise<number> {
  const partial = `${file}.partial-${process.pid}`;
  const handle = await fs.promises.open(partial, 'w', 0o600);
  let written = 0;
  try {
    const parts = 'parts' in archive ? archive.parts : archive;
    for await (const part of parts) {
      // A write may take less than it was given (over 2 GiB at once, a signal): go on until all of it is written.
      for (let offset = 0; offset < part.length; ) offset += (await handle.write(part, offset, part.length - offset)).bytesWritten;
      written += part.length;
    }
    await handle.sync();
    await handle.close();
    await fs.promises.rename(partial, file);
    return written;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
}

/** The PostgreSQL client tools: `pg_dump` and `pg_restore`, or a message saying how to get them. */
export function pgTool(name: 'pg_dump' | 'pg_restore' | 'psql'): string {
  const found = spawnSync(name, ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new BackupError(
      `${name} was not found. Backups of a shop on PostgreSQL are made with PostgreSQL's own tools: install its client programs ` +
        `of the server's version or newer (Debian: apt-get install postgresql-client), or put their folder on PATH.`,
    );
  }
  return name;
}

/** The URL's password goes to pg_dump through its environment, not its command line (ps shows that). */
export function pgConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a PostgreSQL tool, collecting standard output; a failure is a BackupError with its message. */
export function runPgTool(tool: string, args: string[], env: NodeJS.ProcessEnv, input?: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', (error) => reject(new BackupError(`${tool} could not run: ${error.message}`)));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new BackupError(`${tool} failed: ${err.trim() || `exit ${code}`}`))));
    // A tool that stops early (an error) closes its input: its own message says why, not EPIPE.
    if (input) child.stdin!.on('error', () => undefined).end(input);
  });
}

async function dumpPostgres(url: string): Promise<{ data: Buffer; tables: BackupManifest['tables']; migrations: number }> {
  const tool = pgTool('pg_dump');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // One snapshot for the counts and for pg_dump: the manifest describes exactly what was dumped.
    await client.query('begin isolation level repeatable read read only');
    await client.query(`set local time zone 'UTC'`);
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const run: RunQuery = async <T>(sql: string) => (await client.query(sql)).rows as T[];
    const tables = await tableDigests(run);
    const migrations = await migrationsApplied(run);
    const { dbname, env } = pgConnection(url);
    const data = await runPgTool(tool, ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${rows[0]!.snapshot}`, `--dbname=${dbname}`], env);
    await client.query('commit');
    return { data, tables, migrations };
  } finally {
    await client.end().catch(() => undefined);
  }
}
