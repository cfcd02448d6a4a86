import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const tsx = path.resolve('node_modules/.bin/tsx');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-main-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The server on pipes, or on a terminal of its own (util-linux's `script` gives it one). */
function startServer(port: number, { terminal = false, env: extra = {} as Record<string, string> } = {}) {
  const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: '', LOG_FORMAT: '', NO_COLOR: '1', ...extra };
  const child = terminal
    ? spawn('script', ['-qfec', `${tsx} src/server/main.ts`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(tsx, ['src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForReady(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not become ready');
}

describe('the server process', () => {
  it('refuses SHOP_CLOCK_START when NODE_ENV=production, with one line saying why', async () => {
    const refused = startServer(await freePort(), { env: { NODE_ENV: 'production', SHOP_CLOCK_START: '2026-12-03T19:30:00+13:00' } });
    expect(await refused.exited).toBe(1);
    expect(refused.output().trim()).toBe('Invalid configuration:\n  SHOP_CLOCK_START: is for tests only, and refused when NODE_ENV=production (unset it)');
  });

  it('refuses a second process on the same data folder, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const first = startServer(port);
    await waitForReady(port, 60_000);
    const products = await (await fetch(`http://127.0.0.1:${port}/api/products`)).json();
    expect((products as unknown[]).length).toBeGreaterThanOrEqual(12);

    const second = startServer(await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by another Mango Shop process/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
    // Not a terminal: every line is JSON for a log collector, one per request.
    const lines = first.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.msg === 'request' && line.url === '/api/products')).toHaveLength(1);
  }, 90_000);

  it('prints readable lines on a terminal: time, level, message, and a request as GET /path 200 3 ms', async () => {
    const port = await freePort();
    const shop = startServer(port, { terminal: true });
    await waitForReady(port, 60_000);
    await fetch(`http://127.0.0.1:${port}/api/products`);
    const deadline = Date.now() + 5000;
    while (!/GET \/api\/products/.test(shop.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    shop.child.kill('SIGTERM');
    await shop.exited;
    const output = shop.output();
    expect(output).toMatch(/^\d\d:\d\d:\d\d INFO {2}GET \/api\/products 200 [\d.]+ ms\r?$/m);
    expect(output).toMatch(/^\d\d:\d\d:\d\d INFO {2}Mango Shop is open at http:\/\/localhost:\d+\r?$/m);
    expect(output).not.toMatch(/^\{"level"/m);
  }, 90_000);
});
