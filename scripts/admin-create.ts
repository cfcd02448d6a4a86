/** npm run admin:create -- --email E --password P: creates an admin, or makes that account one. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config';
import { type Database, openPglite, openPostgres } from '../src/server/db/client';
import { lockDataDir } from '../src/server/db/data-dir-lock';
import { seedIfEmpty } from '../src/server/db/seed/seed-shop';
import { ensureAdmin } from '../src/server/modules/auth/admin-accounts';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
if (!values.email || !values.password) {
  console.error('Usage: npm run admin:create -- --email you@example.nz --password "a long password"');
  process.exit(2);
}

const config = loadConfig();
let release = () => {};
let database: Database | undefined;
try {
  if (config.databaseUrl) {
    database = await openPostgres(config.databaseUrl, { poolSize: 2 });
  } else {
    release = lockDataDir(config.dataDir);
    database = await openPglite(path.join(config.dataDir, 'pglite'));
  }
  let outcome = 'unchanged';
  await database.migrate(async (db) => {
    if (config.seedOnEmpty) await seedIfEmpty(db);
    outcome = await ensureAdmin(db, { email: values.email!, password: values.password! }, { promoteExisting: true });
  });
  console.log(outcome === 'created' ? `Created admin ${values.email}.` : `${values.email} is now an admin, with the password you gave.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database?.close();
  release();
}
