import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { BackgroundWork } from './background-work';
import { ConfigError, loadConfig } from './config';
import { type Database, MigrationError, openPglite, openPostgres } from './db/client';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock';
import { seedIfEmpty } from './db/seed/seed-shop';
import { chooseLogDestination, loggerOptions } from './lib/logger';
import { takeInWaitingConnections } from './lib/take-in-waiting';
import { ensureAdmin } from './modules/auth/admin-accounts';
import { importDiskImages } from './modules/uploads/import-disk-images';
import { makeBackup } from './ops/backup';
import { serveBackups } from './ops/backup-socket';
import { ScheduledBackups } from './ops/scheduled-backups';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** config -> database -> migrate -> seed if empty -> listen; SIGTERM stops it cleanly. */
async function main(): Promise<void> {
  // Only an owner who says NODE_ENV=production asks for JSON logs on a terminal too.
  const production = process.env.NODE_ENV === 'production';
  // A shop whose clock is not the real time would take orders for days that have passed.
  if (production && process.env.SHOP_CLOCK_START) {
    throw new ConfigError('Invalid configuration:\n  SHOP_CLOCK_START: is for tests only, and refused when NODE_ENV=production (unset it)');
  }
  // React's production build renders the pages unless this is npm run dev (set before React loads).
  process.env.NODE_ENV ??= process.env.WEB_DEV === 'vite' ? 'development' : 'production';
  const config = loadConfig();
  const logStream = chooseLogDestination(config.logFormat, { terminal: Boolean(process.stdout.isTTY), production });
  let releaseLock = () => {};
  let database: Database;
  if (config.databaseUrl) {
    database = await openPostgres(config.databaseUrl);
  } else {
    releaseLock = lockDataDir(config.dataDir);
    database = await openPglite(path.join(config.dataDir, 'pglite'));
  }
  await database.migrate(async (db) => {
    if (config.seedOnEmpty && (await seedIfEmpty(db, config.clockStart ?? new Date()))) logStream.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: 'seeded an empty database with the Mango Shop catalogue' })}\n`);
    if (config.admin) await ensureAdmin(db, config.admin, { promoteExisting: false });
  });

  // npm run dev: one origin, Vite's dev server inside this one (WEB_DEV=vite, scripts/dev.ts).
  const viteDev =
    process.env.WEB_DEV === 'vite'
      ? await (await import('vite')).createServer({ root: projectRoot, server: { middlewareMode: true, hmr: { port: Number(process.env.HMR_PORT ?? 24678) } }, appType: 'custom' })
      : undefined;
  const app = await buildApp({
    config,
    database,
    viteDev,
    webRoot: path.join(projectRoot, 'dist', 'web'),
    clock: config.clockStart ? clockFrom(config.clockStart) : undefined,
    logger: loggerOptions(config, logStream),
  });

  if (config.clockStart) app.log.warn({ clockStart: config.clockStart.toISOString() }, 'the shop\'s clock runs from SHOP_CLOCK_START, for tests only');

  // Decision 0008: pictures earlier versions kept on this host's disk are copied into the database.
  await importDiskImages(database.db, path.join(config.dataDir, 'uploads'))
    .then(({ imported, refused }) => {
      if (imported) app.log.info({ imported }, 'imported uploaded images from the data folder into the database');
      if (refused.length) app.log.warn({ refused }, 'left out files in the uploads folder that are not the picture their name says');
    })
    .catch((error: unknown) => app.log.warn({ err: error }, 'importing uploaded images from the data folder failed; it is tried again at the next start'));

  // Decision 0030: backups of the embedded database go through the process that owns it.
  const makeOwnBackup = () => makeBackup({ database, dataDir: config.dataDir });
  const backupSocket = database.kind === 'pglite' ? await serveBackups(config.dataDir, makeOwnBackup, app.log) : undefined;
  const scheduledBackups = config.backups && database.kind === 'pglite' ? new ScheduledBackups(makeOwnBackup, config.backups, app.log) : undefined;
  if (config.backups && database.kind !== 'pglite') app.log.warn({ dir: config.backups.dir }, 'BACKUP_DIR is for the embedded database: on PostgreSQL, run npm run backup from cron instead');

  const background = new BackgroundWork(app, undefined, database.kind === 'pglite' ? database : undefined);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal, deadlineMs: config.shutdownTimeoutMs }, 'stopping: finishing requests, the sweep and the mail in progress');
    const deadline = setTimeout(() => {
      app.log.error({ deadlineMs: config.shutdownTimeoutMs }, 'could not stop in time: exiting now');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    try {
      await takeInWaitingConnections(app.server);
      // Closing stops accepting and waits for the requests in flight; meanwhile no new background work starts.
      const stopped = await Promise.allSettled([app.close(), background.stop(), scheduledBackups?.stop(), backupSocket?.close()]);
      for (const result of stopped) if (result.status === 'rejected') app.log.error({ err: result.reason }, 'a part of the shop did not stop cleanly');
      await database.close();
    } finally {
      releaseLock();
    }
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (stopping) return;
  await background.start();
  scheduledBackups?.start();
  app.log.info(`Mango Shop is open at http://localhost:${config.port}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof MigrationError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});

/** A clock that starts at `start` and runs on in real time from now (SHOP_CLOCK_START, for tests). */
function clockFrom(start: Date): () => Date {
  const offset = start.getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}
