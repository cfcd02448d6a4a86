import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../db/client';

export interface TestDatabase {
  database: Database;
  /** The database's URL when it lives on a PostgreSQL server. */
  url?: string;
  /** Closes it and, on PostgreSQL, drops it. */
  drop(): Promise<void>;
}

/**
 * A new, empty database on the PostgreSQL server at DATABASE_URL (CI's PostgreSQL run), named
 * `<prefix>_<random>`; `drop` closes and drops it.
 */
export async function newServerDatabase(serverUrl: string, prefix: string, poolSize: number): Promise<TestDatabase & { url: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { poolSize });
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** An empty database with nothing applied: in memory (PGlite), or a new one on DATABASE_URL's server. */
export async function emptyDatabase(): Promise<TestDatabase> {
  const server = process.env.DATABASE_URL;
  if (server) return newServerDatabase(server, 'mango_empty', 4);
  const database = await openPglite(undefined);
  return { database, drop: () => database.close() };
}
