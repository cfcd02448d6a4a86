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

/**
 * Builds into a folder of its own beside `outDir` (`dist/server.<id>`, as deep as `dist/server`)
 * and then points `outDir`, a symbolic link, at it. The link is replaced with one rename(2), which
 * is atomic: a server starting at any moment opens either the old build or the new one, whole, and
 * never finds `dist/server` missing. Node resolves the link when it loads main.js, so a server
 * keeps reading migrations, seed pages and the template from the build it started from even after
 * the link moves on; the build just replaced is kept for such servers, older ones are removed.
 */
export async function buildServer(outDir = path.join(root, 'dist', 'server')): Promise<void> {
  const id = `${Date.now().toString(36)}-${process.pid}`;
  const finished = `${outDir}.${id}`;
  // Unfinished under another name, so removing old builds never takes one still being made.
  const staging = `${finished}.partial`;
  try {
    await build({
      entryPoints: [path.join(root, 'src', 'server', 'main.ts')],
      outfile: path.join(staging, 'main.js'),
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22.12',
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
    fs.renameSync(staging, finished);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  publish(outDir, finished);
}

function publish(outDir: string, finished: string): void {
  const parent = path.dirname(outDir);
  const replaced = currentBuild(outDir);
  const link = `${outDir}-link.${process.pid}`;
  fs.rmSync(link, { force: true });
  // Relative, so the checkout can move. (On Windows, where a link needs rights, a junction.)
  fs.symlinkSync(path.basename(finished), link, 'junction');
  fs.renameSync(link, outDir);
  const kept = new Set([path.basename(finished), replaced && path.basename(replaced)]);
  const prefix = `${path.basename(outDir)}.`;
  for (const name of fs.readdirSync(parent)) {
    const isBuild = name.startsWith(prefix) && /^[0-9a-z]+-\d+$/.test(name.slice(prefix.length));
    // Read the link again for each: a build finishing at the same time may have swapped it since,
    // and the build it points at now is never deleted.
    const current = fs.lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink() ? path.basename(fs.readlinkSync(outDir)) : undefined;
    if (isBuild && !kept.has(name) && name !== current) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

/**
 * The build `outDir` points at now. A real folder there is a build from before the link: it is
 * moved aside once to become the build being replaced (only this first swap leaves an instant
 * without `outDir`).
 */
function currentBuild(outDir: string): string | undefined {
  const stat = fs.lstatSync(outDir, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isSymbolicLink()) return path.resolve(path.dirname(outDir), fs.readlinkSync(outDir));
  const aside = `${outDir}.${Date.now().toString(36)}-0`;
  fs.renameSync(outDir, aside);
  return aside;
}
