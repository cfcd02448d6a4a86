/**
 * npm run restore -- FILE [--force]: restores a backup into an empty DATA_DIR (embedded database)
 * or an empty database at DATABASE_URL; --force replaces one that is not empty. See docs/operations.md, Backups and restore.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/server/config';
import { BackupError, largestArchiveBytes } from '../src/server/ops/backup-archive';
import { restoreBackup } from '../src/server/ops/restore';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
if (positionals.length !== 1) {
  console.error('Usage: npm run restore -- FILE [--force]');
  process.exit(2);
}
const file = path.resolve(positionals[0]!);

try {
  const config = loadConfig();
  if (!fs.existsSync(file)) throw new BackupError(`There is no file ${file}.`);
  if (fs.statSync(file).size > largestArchiveBytes) throw new BackupError(`${file} is larger than 2 GB: it is not a backup this version made.`);
  const started = Date.now();
  const summary = await restoreBackup({ archive: fs.readFileSync(file), databaseUrl: config.databaseUrl, dataDir: config.dataDir, force: values.force });
  const where = config.databaseUrl ? 'the PostgreSQL database at DATABASE_URL' : path.join(config.dataDir, 'pglite');
  console.log(
    `Restored the backup made ${summary.manifest.createdAt} into ${where}: ${Object.keys(summary.manifest.tables).length} tables, ` +
      `${summary.rows} rows, each checked against the backup, and ${summary.mails} delivered mails, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (summary.keptAside) console.log(`The database it replaced is kept in ${summary.keptAside}; delete it once the shop runs well.`);
  console.log('Start the shop with npm start: it applies any newer migrations first.');
} catch (error) {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
