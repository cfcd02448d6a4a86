/** npm run db:migrate: applies pending migrations (npm start also does this on every start). */
import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { openPglite, openPostgres } from '../src/server/db/client';
import { lockDataDir } from '../src/server/db/data-dir-lock';

const config = loadConfig();
const release = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
const database = config.databaseUrl ? await openPostgres(config.databaseUrl, { poolSize: 1 }) : await openPglite(path.join(config.dataDir, 'pglite'));
try {
  await database.migrate();
  console.log('Migrations applied.');
} finally {
  await database.close();
  release();
}
