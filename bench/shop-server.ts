/**
 * The shop as npm start runs it: the web app and the server are built if their sources changed,
 * then the compiled server (dist/server/main.js) serves on a free loopback port, by default with a
 * fresh embedded database in a temporary folder (removed on stop). Another checkout of the shop
 * (`tree`, e.g. an earlier commit's worktree) is built by its own build script and run from its own
 * folder, with this checkout's node flags.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchProcess, leftover, runNode } from './bench-process';
import { startNginx } from './behind-nginx';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildTimeoutMs = 5 * 60_000;
// Migrations and the seed on a fresh embedded database take a few seconds on a slow machine.
const readyTimeoutMs = 2 * 60_000;

/** What npm start runs after building, for the checkout at `tree`. */
export function serverArgs(tree = root): string[] {
  return ['--enable-source-maps', '--max-semi-space-size=2', path.join(tree, 'dist', 'server', 'main.js')];
}

export interface RunningShop {
  url: string;
  /** The shop's data folder: its embedded database and, without SMTP, the mail it sent (outbox/). */
  dataDir: string;
  /** The server keeps the pages it started with: a rebuild since then breaks them. */
  rebuiltSinceStart(): boolean;
  stop(): Promise<void>;
}

export interface ShopProcess extends BenchProcess {
  url: string;
  /** The end of what the server wrote to stderr. */
  errors(): string;
}

/** Builds the web app and the server of the checkout at `tree` when their sources changed, as npm start does. */
export function buildIfChanged(tree = root): void {
  const build = spawnSync(process.execPath, ['--import', 'tsx', path.join('scripts', 'build.ts'), '--if-changed'], { cwd: tree, stdio: 'inherit', timeout: buildTimeoutMs });
  if (build.status !== 0) throw new Error(`building the shop in ${tree} failed (${build.error?.message ?? `exit ${build.status}`})`);
}

export interface RunOptions {
  port: number;
  /** Its data folder (DATA_DIR). */
  dataDir: string;
  /** Settings over the bench's defaults. */
  env?: NodeJS.ProcessEnv;
  /** The checkout to run; this one by default. */
  tree?: string;
  /** Where its log (standard output) goes, as a process manager keeps it; otherwise nowhere. */
  logFile?: string;
  /** The Node.js binary that runs it; the bench's own by default. */
  node?: string;
}

/**
 * The compiled server. Blank values count as unset: the bench never touches a configured
 * PostgreSQL, admin or mail server unless `env` names it.
 */
export function runShop({ port, dataDir, env = {}, tree = root, logFile, node }: RunOptions): ShopProcess {
  const url = `http://127.0.0.1:${port}`;
  const log = logFile ? fs.openSync(logFile, 'a') : undefined;
  let server: BenchProcess;
  try {
    server = runNode(
      serverArgs(tree),
      {
        cwd: tree,
        stdio: ['ignore', log ?? 'ignore', 'pipe'],
        env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '', SMTP_URL: '', ...env },
      },
      node,
    );
  } finally {
    // The server has its own copy of the log's descriptor.
    if (log !== undefined) fs.closeSync(log);
  }
  let errors = '';
  server.child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  return { ...server, url, errors: () => errors };
}

export interface StartOptions {
  /** The checkout to build and run; this one by default. */
  tree?: string;
  /** Settings over the bench's defaults (see runShop). */
  env?: NodeJS.ProcessEnv;
  /** Keep the server's log (standard output) in a file in its data folder, as in production. */
  logToFile?: boolean;
  /** The Node.js binary that runs the server; the bench's own by default. */
  node?: string;
  /** Shop processes on one PostgreSQL database behind nginx (bench/behind-nginx.ts); 1: the shop alone. */
  processes?: number;
}

export async function startShop({ tree = root, env = {}, logToFile = false, node, processes = 1 }: StartOptions = {}): Promise<RunningShop> {
  buildIfChanged(tree);
  // The page renderer of a server-rendered shop, or the index.html of a client-rendered one (a baseline).
  const indexPath = ['server/index.js', 'index.html'].map((file) => path.join(tree, 'dist', 'web', file)).find((file) => fs.existsSync(file))!;
  const servedIndex = fs.readFileSync(indexPath, 'utf8');
  const rebuiltSinceStart = () => !fs.existsSync(indexPath) || fs.readFileSync(indexPath, 'utf8') !== servedIndex;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-web-'));
  leftover({ folder: dataDir });
  const ports = await Promise.all(Array.from({ length: processes }, () => freeLoopbackPort()));
  const publicPort = processes > 1 ? await freeLoopbackPort() : ports[0]!;
  // Behind nginx every process shares the data folder (its outbox of mail) and nginx's address.
  const shared = processes > 1 ? { ...env, PUBLIC_URL: `http://127.0.0.1:${publicPort}`, TRUST_PROXY: '1' } : env;
  const servers: ShopProcess[] = [];
  let proxy: { url: string; stop(): Promise<void> } | undefined;
  const stop = async () => {
    await proxy?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
    leftover({ folder: dataDir }, true);
  };
  try {
    // One after another: the first applies migrations and seeds, the others find them done.
    for (const port of ports) {
      const server = runShop({ port, dataDir, env: shared, tree, logFile: logToFile ? path.join(dataDir, 'shop.log') : undefined, node });
      servers.push(server);
      await waitUntilOk(server, '/readyz', readyTimeoutMs);
    }
    if (processes > 1) proxy = await startNginx(ports, publicPort);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: proxy?.url ?? servers[0]!.url, dataDir, rebuiltSinceStart, stop };
}

/** Polls `pathname` until it answers 2xx; throws when the server exits or the time is up. */
export async function waitUntilOk(server: ShopProcess, pathname: string, timeoutMs = readyTimeoutMs, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await answersOk(`${server.url}${pathname}`))) {
    if (server.hasExited() || Date.now() > deadline) {
      const errors = server.errors();
      throw new Error(`the shop did not start on ${server.url}${errors ? `:\n${errors}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
