/** Runs one SQL statement and answers its rows: the raw embedded client, or a PostgreSQL client. */
export type RunQuery = <T>(sql: string) => Promise<T[]>;

/** The shop's tables, and drizzle's record of the migrations applied. */
export const tablesQuery = `select table_schema || '.' || table_name as name from information_schema.tables
  where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`;

/** One table's row count and digest, as one SQL query (qualified names only: it also runs with an empty search path). */
export function digestSql(name: string): string {
  return `select count(*)::int as rows, md5(coalesce(string_agg(h, '' order by h), '')) as digest from (select md5(t::text) as h from ${quoted(name)} t) rows_of`;
}

export const quoted = (name: string) =>
  name
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');

/**
 * Every table's row count and a digest of its rows (an MD5 over the sorted MD5s of each row's
 * text), read in the caller's snapshot. The same rows give the same digest on either database,
 * as long as times are written in UTC: the caller sets the session's time zone first.
 */
export async function tableDigests(run: RunQuery): Promise<Record<string, { rows: number; digest: string }>> {
  const tables: Record<string, { rows: number; digest: string }> = {};
  for (const { name } of await run<{ name: string }>(tablesQuery)) {
    const [row] = await run<{ rows: number; digest: string | null }>(digestSql(name));
    tables[name] = { rows: row!.rows, digest: row!.digest ?? '' };
  }
  return tables;
}

export async function migrationsApplied(run: RunQuery): Promise<number> {
  const [row] = await run<{ applied: number }>(
    `select case when to_regclass('drizzle.__drizzle_migrations') is null then 0 else (select count(*)::int from drizzle.__drizzle_migrations) end as applied`,
  );
  return row?.applied ?? 0;
}
