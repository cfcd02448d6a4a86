import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type QueryOptions, type Transaction, types } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { copyFreshDatabase } from './fresh-database';
import { type ListenerHealthCheck, ListenConnection, tcpKeepAlive } from './listen-connection';
import { pgliteStartParams } from './pglite-start-params';
import { clientNaming, StatementNames } from './named-statements';
import { NamedStatements } from './pglite-statements';
import * as schema from './schema';
import { markFromDatabase } from './unavailable';
import { migrationsApplied, type RunQuery, tableDigests } from '../ops/table-digests';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** Rows of a raw SQL query; both drivers answer `{ rows }`, which drizzle's shared type leaves unknown. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Set while a transaction's callback (and whatever it starts) runs. */
const insideTransaction = new AsyncLocalStorage<true>();

export class SharedHandleInTransactionError extends Error {
  constructor() {
    super('A query used the shared database handle inside a transaction: use the transaction handle (tx), or read what the transaction needs before it opens.');
  }
}

/**
 * Inside a transaction only its handle may touch the database. PGlite has one connection, so a
 * query on the shared handle would wait for the transaction while the transaction waits for it,
 * forever; on PostgreSQL the same pattern takes a second connection per request and can drain the
 * pool. The driver's entry points refuse such a query at once, and `db.transaction` marks its
 * callback, so the mistake is an error in the request that made it, never a hang of the process.
 */
function refuseInsideTransaction<T extends object>(driver: T, methods: Array<keyof T>): T {
  return new Proxy(driver, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      if (!methods.includes(property as keyof T)) return value.bind(target);
      return (...args: unknown[]) => {
        if (insideTransaction.getStore()) throw new SharedHandleInTransactionError();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * The embedded database's one connection, shared fairly. PGlite runs each statement on the main
 * thread, and its own lock hands the connection from one caller to the next without giving the
 * event loop a turn: under load a whole queue of requests then runs back to back while sockets
 * wait unread, and Node accepts one new connection per turn of its loop, so a shopper who connects
 * in a rush waits seconds behind others who keep sending. Here every statement or transaction
 * takes its turn first come, first served, and the loop gets a turn before each one: new
 * connections and requests join the queue as they arrive (decision 0021).
 */
export class FairTurns {
  private last: Promise<unknown> = Promise.resolve();
  /** Turns asked for and not yet started: the queue in front of the connection. */
  waiting = 0;
  observer: DatabaseObserver | undefined;

  /** Runs `work` once every earlier caller's work has finished and the event loop has had a turn. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    this.waiting += 1;
    const askedAt = performance.now();
    const result = this.last.then(loopTurn, loopTurn).then(() => {
      this.waiting -= 1;
      const observer = this.observer;
      if (!observer) return work();
      const startedAt = performance.now();
      observer.waited(startedAt - askedAt);
      return work().finally(() => observer.ran(performance.now() - startedAt));
    });
    this.last = result.catch(() => undefined);
    return result;
  }
}

/** Told how long each use of the database waited for a connection and how long it then took (metrics). */
export interface DatabaseObserver {
  waited(ms: number): void;
  ran(ms: number): void;
}

function takeTurns<T extends object>(driver: T, methods: Array<keyof T>, turns: FairTurns, statements: NamedStatements): T {
  return new Proxy(driver, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      if (!methods.includes(property as keyof T)) return value.bind(target);
      const call = value as (...a: unknown[]) => Promise<unknown>;
      if (property === 'query') return (...args: unknown[]) => turns.run(() => namedOr(statements, call.bind(target), withoutRepeatedParsers(args), false));
      if (property === 'transaction') {
        return (work: (tx: Transaction) => Promise<unknown>) => turns.run(() => call.call(target, (tx: Transaction) => work(queryingOnce(tx, statements))));
      }
      return (...args: unknown[]) => turns.run(() => call.apply(target, args));
    },
  });
}

/**
 * Types whose text drizzle reads itself: it asks PGlite, with every query, to hand them over as
 * they are (timestamps, dates, intervals and arrays of them). PGlite merges such per-query parsers
 * into its whole table of some 300 parsers each time, which costs more than a small query itself;
 * the client is given the same parsers once instead, and the per-query copy is left out.
 */
const textAsIs = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

function parseTextAsIsOnce(client: PGlite): void {
  for (const type of textAsIs) client.parsers[type] = (value: string) => value;
}

/** Drops a query's own parsers when they are only the ones the client already has (see above). */
function withoutRepeatedParsers(args: unknown[]): unknown[] {
  const options = args[2] as { parsers?: Record<number, unknown> } | undefined;
  if (!options?.parsers || !Object.keys(options.parsers).every((type) => textAsIs.includes(Number(type)))) return args;
  return [args[0], args[1], { ...options, parsers: undefined }];
}

/** A PGlite transaction whose queries run as named statements and leave out parsers the client already has. */
function queryingOnce(tx: Transaction, statements: NamedStatements): Transaction {
  return new Proxy(tx, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property !== 'query' || typeof value !== 'function') return value;
      const call = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
      return (...args: unknown[]) => {
        // A finished transaction's handle refuses, as PGlite's own does.
        if (target.closed) return call(...args);
        return namedOr(statements, call, withoutRepeatedParsers(args), true);
      };
    },
  });
}

/** `query(text, params, options)` as a named statement where one serves (see NamedStatements), else PGlite's own. */
function namedOr(statements: NamedStatements, query: (...a: unknown[]) => Promise<unknown>, args: unknown[], inTransaction: boolean): Promise<unknown> {
  const [text, params, options] = args as [unknown, unknown, QueryOptions | undefined];
  if (typeof text !== 'string' || !(params === undefined || Array.isArray(params)) || !NamedStatements.fits(options)) return query(...args);
  return statements.query(text, params, options, inTransaction);
}

/** A transaction's connection that cannot be opened fails with the driver's bare network error: mark it as the database's. */
function markConnectFailures(pool: pg.Pool, observed: { observer?: DatabaseObserver }): pg.Pool {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient> | undefined;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const timed = (observer: DatabaseObserver, report: 'waited' | 'ran', promise: Promise<unknown>) => {
    const startedAt = performance.now();
    void promise.then(
      () => observer[report](performance.now() - startedAt),
      () => observer[report](performance.now() - startedAt),
    );
    return promise;
  };
  return new Proxy(pool, {
    get(target, property) {
      if (property === 'query') {
        return (...args: unknown[]) => {
          const answer = query(...args);
          return observed.observer && answer instanceof Promise ? timed(observed.observer, 'ran', answer) : answer;
        };
      }
      if (property !== 'connect') return Reflect.get(target, property) as unknown;
      // The pool's own query() connects with a callback: that form is passed through untouched.
      return (...args: unknown[]) => {
        if (args.length) return connect(...args);
        const connected = connect()!.catch((error: unknown) => Promise.reject(markFromDatabase(error)));
        return observed.observer ? timed(observed.observer, 'waited', connected) : connected;
      };
    },
  });
}

function markTransactions(db: Db): Db {
  const open = db.transaction.bind(db);
  db.transaction = ((work, config) => open((tx) => insideTransaction.run(true, () => work(tx)), config)) as Db['transaction'];
  return db;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** A migration failed: its message names it and says why, and that the database is as it was. */
export class MigrationError extends Error {}

/**
 * Runs the pending migrations, which drizzle applies in one transaction: when one fails, none of
 * this start's is kept. The failure is told as the migration's name (the file in migrations/) and
 * the database's reason, found by the statement that failed.
 */
async function explainingMigrationFailure(folder: string, migrate: () => Promise<void>): Promise<void> {
  try {
    await migrate();
  } catch (error) {
    const failedStatement = (error as { query?: unknown }).query;
    const cause = ((error as { cause?: unknown }).cause ?? error) as { message?: unknown; detail?: unknown; hint?: unknown };
    const reason = [cause.message ?? String(cause), cause.detail, cause.hint].filter((part) => typeof part === 'string' && part).join(' ');
    let failed: string | undefined;
    try {
      const journal = readMigrationJournal(folder);
      // The newest first: the pending migrations are the last ones, and an older one may hold the same statement.
      failed = [...journal.entries].reverse().find(
        (entry) => typeof failedStatement === 'string' && fs.readFileSync(path.join(folder, `${entry.tag}.sql`), 'utf8').split('--> statement-breakpoint').includes(failedStatement),
      )?.tag;
    } catch {
      // The migrations folder itself cannot be read: the database's reason is told without the name.
    }
    throw new MigrationError(
      `The database migration ${failed ? `${failed} (migrations/${failed}.sql)` : 'of this version'} failed: ${reason.replace(/\.$/, '')}. ` +
        'No migration of this start was kept: the database is as it was before it. Start the version that ran before, or fix the cause and start again.',
      { cause: error },
    );
  }
}

/** drizzle-kit's list of the migrations in a folder, oldest first. */
export interface MigrationJournal {
  entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
}

export function migrationJournalFile(folder: string): string {
  return path.join(folder, 'meta', '_journal.json');
}

export function readMigrationJournal(folder: string = migrationsFolder): MigrationJournal {
  return JSON.parse(fs.readFileSync(migrationJournalFile(folder), 'utf8')) as MigrationJournal;
}

/** How many migrations this release has: a database with more comes from a newer release. */
export function knownMigrations(): number {
  return readMigrationJournal().entries.length;
}

/** An empty, migrated embedded database made by the server build; absent when running from src/. */
const freshDatabase = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-template');

/** Serialises migrations and seeding when several processes start against one PostgreSQL. */
const startupLockKey = 7_270_001;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs pending migrations, then `afterMigrate` (seeding) under the same start-up lock. */
  migrate(afterMigrate?: (db: Db) => Promise<void>, options?: { migrationsFolder?: string }): Promise<void>;
  /**
   * Calls `onMessage` for every NOTIFY on `channel`, from any process. When the listening
   * connection is lost and while it is re-established, messages may be missed: `onGap` is called
   * then (on the loss and again once listening resumes) so callers can drop what they cached.
   */
  listen(channel: string, onMessage: (payload: string) => void, onGap?: () => void): Promise<void>;
  /**
   * Announces `payload` on `channel` to every listener, in every process. Asked for again before an
   * earlier one of the same payload has left, it is sent once: the one sent covers both.
   */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball (tests start from a copy of one). */
  dump?: () => Promise<Blob>;
  /**
   * PGlite only: a consistent copy of the whole database for a backup, with every table's rows
   * counted and digested in the same instant. It takes one turn of the connection: requests wait
   * meanwhile, for about as long as the database takes to read once.
   */
  snapshot?: () => Promise<DatabaseSnapshot>;
  /** Uses of the database waiting for a connection now (the embedded one's queue; PostgreSQL's pool). */
  waiting(): number;
  /** Starts telling `observer` of every use's wait and time; off until called. */
  observe(observer: DatabaseObserver): void;
}

export interface DatabaseSnapshot {
  /** The data folder as an uncompressed tarball, as PGlite loads it. */
  data: Uint8Array;
  tables: Record<string, { rows: number; digest: string }>;
  migrations: number;
}

/**
 * The embedded database: a folder on disk (a new one starts as a copy of the build's template), or
 * memory when `dataDir` is undefined (tests).
 */
export async function openPglite(dataDir: string | undefined, template?: Blob): Promise<Database> {
  if (dataDir && !template) copyFreshDatabase(freshDatabase, dataDir);
  const client = await PGlite.create(dataDir ?? 'memory://', { startParams: pgliteStartParams, ...(template ? { loadDataDir: template } : {}) });
  parseTextAsIsOnce(client);
  const methods: Array<keyof PGlite> = ['query', 'exec', 'transaction', 'sql'];
  const turns = new FairTurns();
  const statements = new NamedStatements(client);
  const guarded = refuseInsideTransaction(takeTurns(client, methods, turns, statements), methods);
  const db = markTransactions(drizzlePglite({ client: guarded, schema }) as unknown as Db);
  const listeners = new Map<string, Array<(payload: string) => void>>();
  return {
    db,
    kind: 'pglite',
    async migrate(afterMigrate, options) {
      const folder = options?.migrationsFolder ?? migrationsFolder;
      await explainingMigrationFailure(folder, () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: folder }));
      // A statement parsed before may read a table the migrations changed.
      await turns.run(() => statements.forgetAll());
      await afterMigrate?.(db);
    },
    async listen(channel, onMessage) {
      // PGlite hands a notification over while it finishes the committing query: the listener's
      // work belongs to no transaction, even when the commit's caller is still inside one.
      const heard = (payload: string) => insideTransaction.exit(() => onMessage(payload));
      await client.listen(channel, heard);
      listeners.set(channel, [...(listeners.get(channel) ?? []), heard]);
    },
    async notify(channel, payload) {
      // Only this process opens the embedded database: its listeners are all there are, and hear
      // the notification without a statement waiting its turn (a NOTIFY inside SQL still reaches
      // them through the database).
      if (insideTransaction.getStore()) throw new SharedHandleInTransactionError();
      for (const heard of listeners.get(channel) ?? []) setImmediate(heard, payload);
    },
    async close() {
      // After the statements already waiting for their turn, which would fail on a closed database.
      await turns.run(async () => {
        if (!client.closed) await client.close();
      });
    },
    async dump() {
      return client.dumpDataDir('none');
    },
    waiting: () => turns.waiting,
    observe(observer) {
      turns.observer = observer;
    },
    snapshot: () =>
      turns.run(async () => {
        const run: RunQuery = async <T>(sql: string) => (await client.query<T>(sql)).rows;
        await client.exec(`set time zone 'UTC'`);
        const tables = await tableDigests(run);
        const migrations = await migrationsApplied(run);
        // Everything written so far goes into the data files, so the copy needs no recovery.
        await client.exec('checkpoint');
        const data = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
        return { data, tables, migrations };
      }),
  };
}

export interface PostgresOptions {
  poolSize?: number;
  /** How long to wait for a new connection before the request fails (default 5 s). */
  connectTimeoutMs?: number;
  /** How often and how patiently the listening connection is checked (tests shorten both). */
  listenerHealthCheck?: ListenerHealthCheck;
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  // At least two: `migrate` holds one connection for its lock while seeding runs on another.
  const pool = new pg.Pool({
    connectionString: url,
    max: Math.max(options.poolSize ?? 10, 2),
    // A database that does not answer fails the request (503) instead of holding it.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    ...tcpKeepAlive,
    // Statements sent again and again are parsed and planned once per connection (named-statements.ts).
    Client: clientNaming(new StatementNames()),
  });
  /** Notifications asked for and not yet handed to a connection, by channel and payload (notify). */
  const unsent = new Map<string, Promise<void>>();
  function notifyOnce(channel: string, payload: string): Promise<void> {
    const key = `${channel}\n${payload}`;
    // A notification asked for earlier and still waiting for a connection goes out after this
    // change too, and covers it: in a rush a placement's change of the catalogue joins it. Should
    // that one fail, this change asks for its own.
    const waiting = unsent.get(key);
    if (waiting) return waiting.catch(() => notifyOnce(channel, payload));
    const sent = (async () => {
      const client = await pool.connect().finally(() => {
        // From here on a change needs a notification of its own: this one may be on its way.
        if (unsent.get(key) === sent) unsent.delete(key);
      });
      try {
        await client.query('select pg_notify($1, $2)', [channel, payload]);
        client.release();
      } catch (error) {
        // A connection that failed is dropped rather than handed out again.
        client.release(error instanceof Error ? error : true);
        throw error;
      }
    })();
    unsent.set(key, sent);
    return sent;
  }
  // A server restart, failover or terminated backend errors idle clients; without a listener that
  // error would end the process. The pool drops the client and opens a new one when next needed.
  pool.on('error', (error) => console.warn(JSON.stringify({ level: 40, msg: 'idle database connection lost', code: (error as { code?: string }).code })));
  // A client in use between two queries (inside a transaction) gets no query error to carry the
  // loss: it emits 'error', which without a listener ends the process. Its next query fails, and
  // the pool discards it when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => console.warn(JSON.stringify({ level: 40, msg: 'database connection in use lost', code: (error as { code?: string }).code })));
  });
  const observed: { observer?: DatabaseObserver } = {};
  const db = markTransactions(drizzlePg({ client: refuseInsideTransaction(markConnectFailures(pool, observed), ['query', 'connect']), schema }) as unknown as Db);
  const listening = new ListenConnection(url, options.listenerHealthCheck);
  return {
    db,
    kind: 'postgres',
    async migrate(afterMigrate, options) {
      const folder = options?.migrationsFolder ?? migrationsFolder;
      const lockClient = await pool.connect();
      try {
        await lockClient.query('select pg_advisory_lock($1)', [startupLockKey]);
        await explainingMigrationFailure(folder, () => migratePg(drizzlePg({ client: lockClient, schema }), { migrationsFolder: folder }));
        await afterMigrate?.(db);
      } finally {
        await lockClient.query('select pg_advisory_unlock($1)', [startupLockKey]).catch(() => undefined);
        lockClient.release();
      }
    },
    listen: (channel, onMessage, onGap) => listening.listen(channel, (payload) => insideTransaction.exit(() => onMessage(payload)), onGap),
    notify(channel, payload) {
      if (insideTransaction.getStore()) return Promise.reject(new SharedHandleInTransactionError());
      return notifyOnce(channel, payload);
    },
    waiting: () => pool.waitingCount,
    observe(observer) {
      observed.observer = observer;
    },
    async close() {
      if (pool.ended) return;
      await listening.close();
      await pool.end();
    },
  };
}

