import fs from 'node:fs';
import path from 'node:path';

/**
 * Starts a new embedded database as a copy of the empty, migrated one the server build makes
 * (scripts/build-server.ts), when there is one and `dataDir` holds nothing yet. Creating a
 * PostgreSQL cluster inside PGlite (initdb) takes seconds and leaves hundreds of megabytes of
 * garbage in the process; copying a cleanly shut-down cluster takes a fraction of a second
 * (decision 0011). The copy is made under another name and renamed, so a start cut short never
 * leaves half a database behind. Returns whether it copied.
 */
export function copyFreshDatabase(templateDir: string, dataDir: string): boolean {
  if (!fs.existsSync(path.join(templateDir, 'PG_VERSION'))) return false;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) return false;
  // The caller holds the data folder's lock, so a copy left by a start that died is nobody's.
  const partial = `${dataDir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(templateDir, partial, { recursive: true });
  if (fs.existsSync(dataDir)) fs.rmdirSync(dataDir);
  fs.renameSync(partial, dataDir);
  return true;
}
