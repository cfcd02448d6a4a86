import { sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from './client';

/** Every row of every shop table (public schema), as JSON: byte columns as `\x...` hex, times as text. */
export async function exportTables(db: Db): Promise<Record<string, unknown[]>> {
  const tables = await queryRows<{ name: string }>(db, sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`);
  const rows: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    const [row] = await queryRows<{ rows: unknown[] | string }>(db, sql.raw(`select coalesce(json_agg(t), '[]'::json) as rows from "${name}" t`));
    rows[name] = typeof row!.rows === 'string' ? (JSON.parse(row!.rows) as unknown[]) : row!.rows;
  }
  return rows;
}

/**
 * Puts exported rows back into tables of the same shape, in one transaction: identities keep their
 * values and their sequences continue after them. Foreign keys are not checked row by row (the rows
 * came from a database that held them together), so the tables may come in any order.
 */
export async function importTables(db: Db, tables: Record<string, unknown[]>): Promise<void> {
  await db.transaction(async (tx: Tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const [name, rows] of Object.entries(tables)) {
      if (!rows.length) continue;
      const columns = await queryRows<{ name: string; identity: boolean }>(
        tx,
        sql`select column_name as name, is_identity = 'YES' or column_default like 'nextval(%' as identity from information_schema.columns
          where table_schema = 'public' and table_name = ${name} and is_generated = 'NEVER' order by ordinal_position`,
      );
      const list = columns.map((column) => `"${column.name}"`).join(', ');
      await tx.execute(sql`insert into ${sql.identifier(name)} (${sql.raw(list)}) overriding system value
        select ${sql.raw(list)} from json_populate_recordset(null::${sql.identifier(name)}, ${JSON.stringify(rows)}::json)`);
      for (const column of columns.filter((c) => c.identity)) {
        await tx.execute(sql.raw(`select setval(pg_get_serial_sequence('"${name}"', '${column.name}'), coalesce((select max("${column.name}") from "${name}"), 0) + 1, false)`));
      }
    }
  });
}

/** The shop's own sequences (not those behind identity columns): where each one stands. */
export async function exportSequences(db: Db): Promise<Record<string, { value: number; called: boolean }>> {
  const rows = await queryRows<{ name: string; value: string | null }>(
    db,
    sql`select s.sequencename as name, s.last_value::text as value from pg_sequences s
      where s.schemaname = 'public' and not exists (
        select 1 from pg_depend d join pg_class c on c.oid = d.objid
        where c.relname = s.sequencename and d.deptype in ('a', 'i')) order by 1`,
  );
  // A sequence never used has no last value: its next is its start.
  return Object.fromEntries(rows.map((row) => [row.name, { value: row.value === null ? 0 : Number(row.value), called: row.value !== null }]));
}

export async function importSequences(db: Db, sequences: Record<string, { value: number; called: boolean }>): Promise<void> {
  for (const [name, { value, called }] of Object.entries(sequences)) {
    if (called) await db.execute(sql`select setval(${`public.${name}`}::regclass, ${value}, true)`);
  }
}
