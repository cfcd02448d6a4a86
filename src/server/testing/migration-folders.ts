import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MigrationJournal, migrationJournalFile, readMigrationJournal } from '../db/client';

const migrations = fileURLToPath(new URL('../db/migrations', import.meta.url));

/**
 * A copy of this release's migrations in `folder`, its journal changed by `edit` (fewer
 * migrations: an older release; more: a newer one, whose files `edit` writes into the folder).
 */
export function migrationsCopy(folder: string, edit: (journal: MigrationJournal) => MigrationJournal): string {
  fs.cpSync(migrations, folder, { recursive: true });
  fs.writeFileSync(migrationJournalFile(folder), JSON.stringify(edit(readMigrationJournal(folder))));
  return folder;
}

/** Adds migration `tag` with `sql` after the last one of `journal`, writing its file into `folder`. */
export function addMigration(folder: string, journal: MigrationJournal, tag: string, sql: string): MigrationJournal {
  const last = journal.entries.at(-1)!;
  fs.writeFileSync(path.join(folder, `${tag}.sql`), sql);
  return { ...journal, entries: [...journal.entries, { idx: last.idx + 1, version: last.version, when: last.when + 1, tag, breakpoints: true }] };
}
