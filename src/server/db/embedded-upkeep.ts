import { sql } from 'drizzle-orm';
import { type Database, queryRows } from './client';

/**
 * PostgreSQL's autovacuum defaults: a table is vacuumed past 50 dead rows plus a fifth of its rows,
 * or past 1000 rows inserted since its last vacuum plus a fifth (so a table only ever added to has
 * its pages marked all-visible and frozen too), or once its oldest transaction id is 200 million
 * old; it is analyzed past 50 changed rows plus a tenth.
 */
const vacuumBase = 50;
const vacuumShare = 0.2;
const insertVacuumBase = 1000;
const insertVacuumShare = 0.2;
const freezeMaxAge = 200_000_000;
const analyzeBase = 50;
const analyzeShare = 0.1;

interface TableStats extends Record<string, unknown> {
  schema: string;
  name: string;
  /** The row count the planner knows (-1: never analyzed). */
  known_rows: number | string;
  dead_rows: number | string;
  inserted_since_vacuum: number | string;
  changed_since_analyze: number | string;
  xid_age: number | string;
}

export interface TableCounts {
  knownRows: number;
  deadRows: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
  /** Transactions since the table's oldest unfrozen row. */
  xidAge: number;
}

export interface UpkeepStep {
  table: string;
  /** `vacuum`: dead rows cleared and the table analyzed; `analyze`: its statistics only. */
  action: 'vacuum' | 'analyze';
  ms: number;
}

/** Whether autovacuum would vacuum the table: dead rows, rows inserted since its last vacuum, or its age. */
function needsVacuum(counts: TableCounts): boolean {
  const rows = Math.max(counts.knownRows, 0);
  return counts.deadRows > vacuumBase + vacuumShare * rows || counts.insertedSinceVacuum > insertVacuumBase + insertVacuumShare * rows || counts.xidAge > freezeMaxAge;
}

/**
 * Whether the planner's statistics are out of date: enough rows changed, or a table never counted
 * (a new shop's, copied from the build's template, whose rows the statistics have not seen either).
 */
function needsAnalyze(counts: TableCounts): boolean {
  return counts.knownRows < 0 || counts.changedSinceAnalyze > analyzeBase + analyzeShare * Math.max(counts.knownRows, 0);
}

/** What a table needs by autovacuum's rules, from its counts (a vacuum analyzes it too). */
export function upkeepOf(counts: TableCounts): 'vacuum' | 'analyze' | null {
  if (needsVacuum(counts)) return 'vacuum';
  return needsAnalyze(counts) ? 'analyze' : null;
}

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL in this process without its
 * background workers, so nothing else ever analyzes a table (the planner then plans from guesses:
 * a join of two tables it believes tiny walks one whole table for each row of the other) or
 * vacuums one (the dead rows of updated carts, sessions and rate limits pile up). Each call does
 * what autovacuum would by its default thresholds, for the shop's tables and the system catalogs
 * (analyzing one leaves dead rows in pg_statistic), one table per statement, each taking its turn
 * of the connection like any request (decision 0040).
 */
export async function upkeepEmbedded(database: Database, signal?: AbortSignal): Promise<UpkeepStep[]> {
  const tables = await queryRows<TableStats>(
    database.db,
    sql`select s.schemaname as schema, s.relname as name, c.reltuples as known_rows, s.n_dead_tup as dead_rows,
        s.n_ins_since_vacuum as inserted_since_vacuum, s.n_mod_since_analyze as changed_since_analyze,
        case when c.relkind in ('r', 'm', 't') then age(c.relfrozenxid) else 0 end as xid_age
      from pg_stat_all_tables s join pg_class c on c.oid = s.relid
      where s.schemaname in ('public', 'pg_catalog') order by s.schemaname desc, s.relname`,
  );
  const steps: UpkeepStep[] = [];
  for (const table of tables) {
    if (signal?.aborted) break;
    const counts: TableCounts = {
      knownRows: Number(table.known_rows),
      deadRows: Number(table.dead_rows),
      insertedSinceVacuum: Number(table.inserted_since_vacuum),
      changedSinceAnalyze: Number(table.changed_since_analyze),
      xidAge: Number(table.xid_age),
    };
    const catalog = table.schema === 'pg_catalog';
    // The catalogs take the vacuum rules and are never analyzed here: their statistics are the database's own.
    const action = catalog ? (needsVacuum(counts) ? 'vacuum' : null) : upkeepOf(counts);
    if (!action) continue;
    const name = sql`${sql.identifier(table.schema)}.${sql.identifier(table.name)}`;
    const startedAt = performance.now();
    await database.db.execute(action === 'analyze' ? sql`analyze ${name}` : catalog ? sql`vacuum ${name}` : sql`vacuum (analyze) ${name}`);
    steps.push({ table: catalog ? `pg_catalog.${table.name}` : table.name, action, ms: Math.round(performance.now() - startedAt) });
  }
  return steps;
}
