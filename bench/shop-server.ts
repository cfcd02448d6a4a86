/**
 * The shop as npm start runs it, for the browser benchmarks: the web app is built if its sources
 * changed, then src/server/main.ts serves it on a free loopback port with a fresh embedded
 * database in a temporary folder (removed on stop).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftover, runTypeScript } from './bench-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const buildTimeoutMs = 5 * 60_000;
// Migrations and the seed on a fresh embedded database take a few seconds on a slow machine.
const readyTimeoutMs = 2 * 60_000;

export interface RunningShop {
  url: string;
  /** The server keeps the index.html it started with: a rebuild since then breaks its pages. */
  rebuiltSinceStart(): boolean;
  stop(): Promise<void>;
}

export async function startShop(): Promise<RunningShop> {
  const build = spawnSync(tsx, [path.join(root, 'scripts', 'build-web-if-needed.ts')], { cwd: root, stdio: 'inherit', timeout: buildTimeoutMs });
  if (build.status !== 0) throw new Error(`building the web app failed (${build.error?.message ?? `exit ${build.status}`})`);

  const indexPath = path.join(root, 'dist', 'web', 'index.html');
  const servedIndex = fs.readFileSync(indexPath, 'utf8');
  const rebuiltSinceStart = () => !fs.existsSync(indexPath) || fs.readFileSync(indexPath, 'utf8') !== servedIndex;
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-web-'));
  leftover({ folder: dataDir });
  const server = runTypeScript(path.join(root, 'src', 'server', 'main.ts'), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    // Blank values count as unset: the bench never touches a configured PostgreSQL, admin or mail server.
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '', SMTP_URL: '' },
  });
  let errors = '';
  server.child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    leftover({ folder: dataDir }, true);
  };

  const deadline = Date.now() + readyTimeoutMs;
  while (!(await isReady(url))) {
    if (server.hasExited() || Date.now() > deadline) {
      await stop();
      throw new Error(`the shop did not start on ${url}${errors ? `:\n${errors}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, rebuiltSinceStart, stop };
}

async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
