/**
 * The compiled server as npm start runs it (node dist/server/main.js, NODE_ENV=production):
 * - cold start: from spawning it to the first 200 from GET /api/products, on a new data folder and
 *   again on the same folder (BENCH_STARTS runs each, interleaved);
 * - resident memory (VmRSS of the server process, from /proc) after start and after
 *   BENCH_MEMORY_SECONDS of mixed load (bench/mixed-load.ts), on the embedded database and, when
 *   DATABASE_URL is set, on PostgreSQL; next to bare Node processes measured in the same run, one
 *   of them holding only PGlite as the shop opens it (bench/bare-pglite.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchLimits, registerShoppers } from './shoppers';
import { leftover, runNode } from './bench-process';
import { median } from './http';
import { mixedLoad, type MixedLoadResult } from './mixed-load';
import { buildIfChanged, freeLoopbackPort, runShop, waitUntilOk } from './shop-server';
import { printTable } from './table';

const startRuns = Number(process.env.BENCH_STARTS ?? 3);
const loadSeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 60);
const shopperCount = Number(process.env.BENCH_CONNECTIONS ?? 20);
const goals = { coldStartMs: 3000, aboveBarePgliteMib: 150, postgresMib: 200 };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverBuild = path.join(root, 'dist', 'server');
const readyTimeoutMs = 2 * 60_000;

interface Resident {
  /** VmRSS and VmHWM (the peak), MiB. */
  now: number;
  peak: number;
}

interface ShopMemory {
  database: 'PGlite' | 'PostgreSQL';
  startMs: number;
  afterStart: Resident;
  afterLoad: Resident;
  load: MixedLoadResult;
}

export interface RuntimeResult {
  freshStartsMs: number[];
  warmStartsMs: number[];
  bareNode: Resident;
  barePglite: Resident;
  barePgliteDefaults: Resident;
  shops: ShopMemory[];
  loadAverage: { before: number; after: number };
}

export async function benchRuntime(): Promise<RuntimeResult> {
  buildIfChanged();
  const loadBefore = os.loadavg()[0]!;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-runtime-'));
  leftover({ folder: scratch });
  try {
    const bareScript = await bundleBarePglite();
    const bareNode = await residentOfBare(['-e', "process.stdout.write('ready\\n'); setInterval(() => {}, 1 << 30);"]);
    const barePglite = await residentOfBare([bareScript, 'shop', path.join(scratch, 'bare-shop'), path.join(serverBuild, 'pglite-template'), path.join(serverBuild, 'migrations')]);
    const barePgliteDefaults = await residentOfBare([bareScript, 'defaults', path.join(scratch, 'bare-defaults')]);

    const freshStartsMs: number[] = [];
    const warmStartsMs: number[] = [];
    for (let run = 0; run < startRuns; run += 1) {
      process.stdout.write(`  start ${run + 1}/${startRuns}: new data folder, then the same folder again\n`);
      const dataDir = path.join(scratch, `starts-${run}`);
      freshStartsMs.push(await timedStart(dataDir));
      warmStartsMs.push(await timedStart(dataDir));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }

    const shops = [await shopMemory('PGlite', path.join(scratch, 'load'))];
    if (process.env.DATABASE_URL) shops.push(await shopMemory('PostgreSQL', path.join(scratch, 'load-postgres'), { DATABASE_URL: process.env.DATABASE_URL }));
    return { freshStartsMs, warmStartsMs, bareNode, barePglite, barePgliteDefaults, shops, loadAverage: { before: loadBefore, after: os.loadavg()[0]! } };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    leftover({ folder: scratch }, true);
  }
}

/** Milliseconds from spawning the server to its first product list; the server is stopped after. */
async function timedStart(dataDir: string): Promise<number> {
  const port = await freeLoopbackPort();
  const started = performance.now();
  const shop = runShop({ port, dataDir });
  try {
    await waitUntilOk(shop, '/api/products', readyTimeoutMs, 20);
    return performance.now() - started;
  } finally {
    await shop.stop();
  }
}

async function shopMemory(database: ShopMemory['database'], dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ShopMemory> {
  process.stdout.write(`  memory on ${database}: start, then ${loadSeconds} s of mixed load with ${shopperCount} shoppers\n`);
  const port = await freeLoopbackPort();
  const started = performance.now();
  const shop = runShop({ port, dataDir, env: { ...benchLimits, ...env } });
  try {
    await waitUntilOk(shop, '/api/products', readyTimeoutMs, 20);
    const startMs = performance.now() - started;
    const afterStart = resident(shop);
    const shoppers = await registerShoppers(shop.url, shopperCount);
    const load = await mixedLoad(shop.url, shoppers, loadSeconds);
    return { database, startMs, afterStart, afterLoad: resident(shop), load };
  } finally {
    await shop.stop();
  }
}

function resident(server: { child: { pid?: number } }): Resident {
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** Runs node with `args` until it prints `ready`, reads its memory, and stops it. */
async function residentOfBare(args: string[]): Promise<Resident> {
  const bare = runNode(args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      readline.createInterface({ input: bare.child.stdout! }).once('line', () => resolve());
      bare.child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited (${code}) before it was ready`)));
    });
    return resident(bare);
  } finally {
    await bare.stop();
  }
}

/** bench/bare-pglite.ts as plain JavaScript, beside the bench's other output so it finds node_modules. */
async function bundleBarePglite(): Promise<string> {
  const outfile = path.join(root, 'bench', '.out', 'bare-pglite.mjs');
  await build({
    entryPoints: [path.join(root, 'bench', 'bare-pglite.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22.12',
    logLevel: 'warning',
  });
  return outfile;
}

const mib = (value: number) => value.toFixed(0);
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

export function printRuntime(result: RuntimeResult): void {
  const { freshStartsMs, warmStartsMs, bareNode, barePglite, barePgliteDefaults, shops } = result;
  const cores = os.cpus().length;
  console.log(
    `\nRuntime of the compiled server (node dist/server/main.js, NODE_ENV=production); load average ${result.loadAverage.before.toFixed(1)} before, ${result.loadAverage.after.toFixed(1)} after, on ${cores} cores`,
  );
  // The bench's own load raises the figure after; the one before tells whether others were busy.
  if (result.loadAverage.before > cores) {
    console.log('The machine was busy with other work: start times are pessimistic.');
  }

  console.log(`\nCold start: from spawning the server to its first product list (${startRuns} runs each)\n`);
  const startRow = (label: string, runs: number[]) => [label, median(runs).toFixed(0), runs.map((ms) => ms.toFixed(0)).join(', ')];
  printTable(
    ['data', 'median ms', 'runs ms'],
    [
      startRow('PGlite, new data folder', freshStartsMs),
      startRow('PGlite, same folder again', warmStartsMs),
      ...shops.filter((shop) => shop.database === 'PostgreSQL').map((shop) => startRow('PostgreSQL (DATABASE_URL), one run', [shop.startMs])),
    ],
  );

  console.log(`\nResident memory (VmRSS, MiB; peak = VmHWM)${shops.length ? `; load: ${loadSeconds} s of mixed load, ${shopperCount} shoppers` : ''}\n`);
  printTable(
    ['process', 'after start', 'after load', 'peak', 'load: requests/s, orders, failed'],
    [
      ['bare Node (node -e, nothing loaded)', mib(bareNode.now), '', mib(bareNode.peak), ''],
      ["bare PGlite as the shop opens it (its options, template copy, migrations)", mib(barePglite.now), '', mib(barePglite.peak), ''],
      ['bare PGlite with its defaults on a new folder (initdb)', mib(barePgliteDefaults.now), '', mib(barePgliteDefaults.peak), ''],
      ...shops.map((shop) => [
        `shop on ${shop.database}`,
        mib(shop.afterStart.now),
        mib(shop.afterLoad.now),
        mib(shop.afterLoad.peak),
        `${(shop.load.requests / shop.load.seconds).toFixed(0)}, ${shop.load.orders}, ${shop.load.failed}`,
      ]),
    ],
  );

  const freshMedian = median(freshStartsMs);
  console.log(`\nCold start on a new data folder: ${freshMedian.toFixed(0)} ms (goal: under ${goals.coldStartMs} ms): ${verdict(freshMedian < goals.coldStartMs)}.`);
  for (const shop of shops) {
    if (shop.database === 'PGlite') {
      const above = Math.max(shop.afterStart.now, shop.afterLoad.now) - barePglite.now;
      const peakAbove = shop.afterLoad.peak - barePglite.now;
      console.log(
        `PGlite: the shop is ${mib(above)} MiB above the bare PGlite process, ${mib(peakAbove)} at its peak (goal: at most ${goals.aboveBarePgliteMib} MiB): ${verdict(above <= goals.aboveBarePgliteMib)}.`,
      );
    } else {
      console.log(`PostgreSQL: ${mib(shop.afterLoad.now)} MiB after ${loadSeconds} s of mixed load (goal: under ${goals.postgresMib} MiB): ${verdict(shop.afterLoad.now < goals.postgresMib)}.`);
    }
    if (shop.load.failed) console.log(`${shop.database}: ${shop.load.failed} requests of the mixed load failed: the figures above are not to be trusted.`);
  }
  if (shops.length === 1) console.log('\nSet DATABASE_URL (a database for benchmarks only) to measure PostgreSQL as well.');
}
