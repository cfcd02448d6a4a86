/**
 * npm run build: the web app into dist/web (Vite) and the server into dist/server
 * (scripts/build-server.ts). With --if-changed (npm start, the browser tests, the bench) each is
 * built only when its sources changed since its last build: a hash of every input is kept beside
 * the output. Names after the options pick targets: `tsx scripts/build.ts --if-changed server`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Target {
  name: string;
  label: string;
  inputs: string[];
  /** A file every complete build leaves; the stamp is written beside it. */
  output: string;
  build(): Promise<void>;
}

const targets: Target[] = [
  {
    name: 'web',
    label: 'the web app',
    inputs: ['src/web', 'src/contracts', 'public', 'vite.config.ts', 'react-router.config.ts', 'scripts/vite-precompress.ts', 'scripts/vite-frame-chunk.ts', 'scripts/vite-zod-jitless.ts', 'scripts/vite-lucide-icons.ts', 'package-lock.json'],
    // React Router builds the browser's files into dist/web/client and the page renderer into dist/web/server.
    output: 'dist/web/server/index.js',
    async build() {
      const reactRouter = path.join(root, 'node_modules', '.bin', 'react-router');
      // Always the production build, even when started from a test runner that sets NODE_ENV=test:
      // the stamp says only that the sources are built, not in which mode.
      const result = spawnSync(reactRouter, ['build', '--logLevel', 'warn'], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
      process.stdout.write(withoutOthersWarnings(result.stdout ?? ''));
      process.stderr.write(withoutOthersWarnings(result.stderr ?? ''));
      if (result.status !== 0) throw new Error(`react-router build failed (${result.error?.message ?? `exit ${result.status}`})`);
    },
  },
  {
    name: 'server',
    label: 'the server',
    inputs: ['src/server', 'src/contracts', 'scripts/build-server.ts', 'tsconfig.json', 'package-lock.json'],
    output: 'dist/server/main.js',
    // Imported only to build: it loads the database driver, which a start with nothing to build does not need.
    build: async () => (await import('./build-server')).buildServer(),
  },
];

/**
 * React Router 7's build creates Vite servers of its own with `envFile: false`, which Vite 8
 * reports as deprecated on every build. The option is theirs, not ours, and the owner can do
 * nothing about it: that line alone is left out; every other line is passed on as it is.
 */
function withoutOthersWarnings(output: string): string {
  return output
    .split('\n')
    .filter((line) => !line.includes('The `envFile` option is deprecated, please use `envDir: false` instead.'))
    .join('\n');
}

function filesUnder(relative: string): string[] {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [relative];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

function digestOf(inputs: string[]): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesUnder).sort()) {
    hash.update(file).update('\0').update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

const { values, positionals } = parseArgs({ options: { 'if-changed': { type: 'boolean', default: false } }, allowPositionals: true });
const unknown = positionals.filter((name) => !targets.some((target) => target.name === name));
if (unknown.length) {
  console.error(`Unknown build target ${unknown.join(', ')} (use ${targets.map((target) => target.name).join(', ')})`);
  process.exit(2);
}

for (const target of targets.filter((t) => !positionals.length || positionals.includes(t.name))) {
  const output = path.join(root, target.output);
  const stampFile = path.join(path.dirname(output), '.build-hash');
  const digest = digestOf(target.inputs);
  const current = fs.existsSync(output) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === digest;
  if (values['if-changed'] && current) continue;
  console.log(values['if-changed'] ? `Building ${target.label} (first start, or its sources changed)...` : `Building ${target.label}...`);
  try {
    await target.build();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  fs.writeFileSync(stampFile, digest);
}
