import { sql } from 'drizzle-orm';
import { type Database, queryRows } from './client';

/** PostgreSQL's autovacuum defaults: a table is vacuumed past 50 dead rows plus a fifth of its rows, analyzed past 50 changed rows plus a tenth. */
const vacuumBase = 50;
const vacuumShare = 0.2;
const analyzeBase = 50;
const analyzeShare = 0.1;

interface TableStats extends Record<string, unknown> {
  name: string;
  /** The row count the planner knows (-1: never analyzed). */
  known_rows: number | string;
  live_rows: number | string;
  dead_rows: number | string;
  changed_since_analyze: number | string;
}

export interface UpkeepStep {
  table: string;
  /** `vacuum`: dead rows cleared and the table analyzed; `analyze`: its statistics only. */
  action: 'vacuum' | 'analyze';
  ms: number;
}

/** What a table needs by autovacuum's rule, from its counts. */
export function upkeepOf(stats: { knownRows: number; liveRows: number; deadRows: number; changedSinceAnalyze: number }): 'vacuum' | 'analyze' | null {
  const rows = Math.max(stats.knownRows, 0);
  if (stats.deadRows > vacuumBase + vacuumShare * rows) return 'vacuum';
  if (stats.changedSinceAnalyze > analyzeBase + analyzeShare * rows) return 'analyze';
  // A table the planner has never counted (a new shop's, copied from the build's template, whose
  // rows the statistics have not seen either): it would plan from a guess.
  if (stats.knownRows < 0) return 'analyze';
  return null;
}

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL in this process without its
 * background workers, so nothing else ever analyzes a table (the planner then plans from guesses:
 * a join of two tables it believes tiny walks one whole table for each row of the other) or
 * vacuums one (the dead rows of updated carts, sessions and rate limits pile up). Each `run`
 * does what autovacuum would by its default thresholds, one table per statement, each taking its
 * turn of the connection like any request (decision 0040).
 */
export async function upkeepEmbedded(database: Database, signal?: AbortSignal): Promise<UpkeepStep[]> {
  const tables = await queryRows<TableStats>(
    database.db,
    sql`select s.relname as name, c.reltuples as known_rows, s.n_live_tup as live_rows, s.n_dead_tup as dead_rows, s.n_mod_since_analyze as changed_since_analyze
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.schemaname = 'public' order by s.relname`,
  );
  const steps: UpkeepStep[] = [];
  for (const table of tables) {
    if (signal?.aborted) break;
    const action = upkeepOf({ knownRows: Number(table.known_rows), liveRows: Number(table.live_rows), deadRows: Number(table.dead_rows), changedSinceAnalyze: Number(table.changed_since_analyze) });
    if (!action) continue;
    const startedAt = performance.now();
    await database.db.execute(action === 'vacuum' ? sql`vacuum (analyze) ${sql.identifier(table.name)}` : sql`analyze ${sql.identifier(table.name)}`);
    steps.push({ table: table.name, action, ms: Math.round(performance.now() - startedAt) });
  }
  return steps;
}
