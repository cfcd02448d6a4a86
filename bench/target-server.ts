/**
 * The shop under the order bench's load, as it runs in production (logging every request), with
 * shelves and delivery days that hold a whole run's orders. Run apart from the load generator so
 * each has a core. Prints one JSON line with its address, then serves until SIGTERM.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { logDestination, loggerOptions } from '../src/server/lib/logger';
import { openPglite, openPostgres } from '../src/server/db/client';
import { seedIfEmpty } from '../src/server/db/seed/seed-shop';
import { defaultDeliverySettings } from '../src/contracts/delivery';
import { deliverySettings, products } from '../src/server/db/schema';
import { benchLimits } from './shoppers';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-'));
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  ...benchLimits,
});
const database = config.databaseUrl ? await openPostgres(config.databaseUrl, { poolSize: 20 }) : await openPglite(undefined);
await database.migrate(async (db) => {
  await seedIfEmpty(db);
  // The order bench buys boxes for its whole run: the shelves hold plenty.
  await db.update(products).set({ stock: 1_000_000 }).where(eq(products.isPreOrder, false));
  // ... and every delivery day packs as many boxes as the settings allow (100000).
  const packing = { ...defaultDeliverySettings, boxesPerDay: 100_000 };
  await db.insert(deliverySettings).values({ id: 1, data: packing }).onConflictDoUpdate({ target: deliverySettings.id, set: { data: packing } });
});
// The request log as in production (lib/logger.ts), into a file the bench reads nothing from.
const logFile = path.join(dataDir, 'shop.log');
const app = await buildApp({ config, database, logger: loggerOptions(config, logDestination(fs.openSync(logFile, 'a'))) });
const shopUrl = await app.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ shopUrl, database: database.kind })}\n`);

process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
