import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../db/client';

/**
 * An empty database with nothing applied: in memory (PGlite), or, when DATABASE_URL is set (CI's
 * PostgreSQL run), a new database on that server. `drop` closes it and, on PostgreSQL, drops it.
 */
export async function emptyDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    const database = await openPglite(undefined);
    return { database, drop: () => database.close() };
  }
  const name = `mango_empty_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { poolSize: 4 });
  return {
    database,
    async drop() {
      await database.close();
      const dropper = new pg.Client({ connectionString: server });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
