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
