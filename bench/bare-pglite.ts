/**
 * A bare Node process that holds only the embedded database: the baseline of the runtime report's
 * memory goal. bench/runtime.ts bundles it and runs it with node, as the shop runs, so no
 * TypeScript loader is counted. Modes:
 * - `shop FOLDER TEMPLATE MIGRATIONS`: PGlite as the shop opens it: a new folder copied from the
 *   build's template, the shop's start parameters, the shop's migrations applied (none pending);
 * - `defaults FOLDER`: PGlite.create with PGlite's own defaults on a new folder (initdb in the
 *   process), as every start created it before decision 0011.
 * Prints `ready` once the database answers, then holds it until SIGTERM.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { copyFreshDatabase } from '../src/server/db/fresh-database';
import { pgliteStartParams } from '../src/server/db/pglite-start-params';

const [mode, folder, template, migrationsFolder] = process.argv.slice(2);
if (!folder || (mode === 'shop' ? !template || !migrationsFolder : mode !== 'defaults')) {
  console.error('usage: bare-pglite shop FOLDER TEMPLATE MIGRATIONS | bare-pglite defaults FOLDER');
  process.exit(2);
}

let client: PGlite;
if (mode === 'shop') {
  copyFreshDatabase(template!, folder);
  client = await PGlite.create(folder, { startParams: pgliteStartParams });
  await migrate(drizzle({ client }), { migrationsFolder: migrationsFolder! });
} else {
  client = await PGlite.create(folder);
}
await client.query('select 1');
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await client.close();
  process.exit(0);
});
