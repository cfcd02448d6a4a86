/**
 * npm run backup -- FILE: a consistent backup of the whole shop while it runs (see docs/operations.md, Backups and restore).
 * On the embedded database the running shop makes it (it alone may read its folder); when no shop
 * runs on DATA_DIR, this command opens the folder itself. On PostgreSQL, pg_dump makes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/client';
import { lockDataDir, lockHolder } from '../src/server/db/data-dir-lock';
import { BackupError } from '../src/server/ops/backup-archive';
import { askRunningShop } from '../src/server/ops/backup-socket';
import { makeBackup, writeWhole } from '../src/server/ops/backup';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error('Usage: npm run backup -- FILE   (for example: npm run backup -- backups/mango-2026-11-27.tar)');
  process.exit(2);
}
const file = path.resolve(positionals[0]!);

try {
  const config = loadConfig();
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new BackupError(`${file} is a folder: name the backup file to write.`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const started = Date.now();
  let bytes: number;
  let how: string;
  if (config.databaseUrl) {
    bytes = await writeWhole(file, await makeBackup({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
    how = 'PostgreSQL, with pg_dump';
  } else {
    const holder = lockHolder(config.dataDir);
    if (holder) {
      bytes = await askRunningShop(config.dataDir, holder, file);
      how = `the embedded database, from the running shop (pid ${holder})`;
    } else if (!fs.existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'))) {
      throw new BackupError(`There is no shop database in ${path.join(config.dataDir, 'pglite')}: set DATA_DIR (or DATABASE_URL) to the shop's.`);
    } else {
      const release = lockDataDir(config.dataDir);
      try {
        const database = await openPglite(path.join(config.dataDir, 'pglite'));
        try {
          bytes = await writeWhole(file, await makeBackup({ database, dataDir: config.dataDir }));
        } finally {
          await database.close();
        }
      } finally {
        release();
      }
      how = 'the embedded database (no shop was running on it)';
    }
  }
  console.log(`Wrote a backup of ${how} to ${file}: ${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
