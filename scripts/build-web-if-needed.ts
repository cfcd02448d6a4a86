/**
 * npm start builds the web app only when its sources changed since the last build: a hash of
 * every input is kept beside the output.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = ['src/web', 'src/contracts', 'public', 'vite.config.ts', 'scripts/vite-precompress.ts', 'package-lock.json'];
const stampFile = path.join(root, 'dist', 'web', '.build-hash');

function filesUnder(relative: string): string[] {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [relative];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

const hash = createHash('sha256');
for (const file of inputs.flatMap(filesUnder).sort()) {
  hash.update(file).update('\0').update(fs.readFileSync(path.join(root, file)));
}
const digest = hash.digest('hex');

if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === digest && fs.existsSync(path.join(root, 'dist/web/index.html'))) {
  process.exit(0);
}
console.log('Building the web app (first start, or its sources changed)...');
const vite = path.join(root, 'node_modules', '.bin', 'vite');
const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
fs.writeFileSync(stampFile, digest);
