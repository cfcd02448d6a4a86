/**
 * The server as it runs in production (decision 0011): src/server/main.ts and everything it
 * imports from src/, bundled by esbuild into one ES module, dist/server/main.js, with a source map.
 * Packages stay in node_modules and are imported as they are, so the bundle holds only our code.
 * main.js sits as deep as src/server/main.ts, so main.ts finds dist/web at the same '../..'.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { openPglite } from '../src/server/db/client';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Files the server reads at run time. In the bundle every module's `import.meta.url` is main.js's,
 * so db/client.ts looks for `migrations/` and db/seed/seed-shop.ts for `content/` beside main.js.
 */
const runtimeFiles = [
  { from: 'src/server/db/migrations', to: 'migrations' },
  { from: 'src/server/db/seed/content', to: 'content' },
];

export async function buildServer(outDir = path.join(root, 'dist', 'server')): Promise<void> {
  // Built beside the output and swapped in at the end: a server starting meanwhile sees the old
  // build or the new one, never half of one.
  const staging = `${outDir}.building-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    await build({
      entryPoints: [path.join(root, 'src', 'server', 'main.ts')],
      outfile: path.join(staging, 'main.js'),
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      sourcemap: 'linked',
      // Stack traces need only the positions: the sources are in the repository.
      sourcesContent: false,
      logLevel: 'warning',
    });
    for (const { from, to } of runtimeFiles) {
      fs.cpSync(path.join(root, from), path.join(staging, to), { recursive: true });
    }
    // The empty, migrated database a new data folder starts as (src/server/db/fresh-database.ts).
    const template = await openPglite(path.join(staging, 'pglite-template'));
    await template.migrate();
    await template.close();
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.renameSync(staging, outDir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
