import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from './faults/harness';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-compiled-'));
let server: ChildProcess | undefined;

afterAll(() => {
  server?.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForProducts(url: string, timeoutMs: number): Promise<unknown[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/api/products`);
      if (response.ok) return (await response.json()) as unknown[];
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the compiled server did not answer');
}

describe('the compiled server (what npm start runs)', () => {
  it('starts on a new data folder from the build, with its migrations and the seed pages beside it, and stops on SIGTERM', async () => {
    await buildServer();

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--enable-source-maps', '--max-semi-space-size=2', 'dist/server/main.js'], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    server.stderr!.on('data', (chunk) => (errors += chunk));
    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));

    const products = await waitForProducts(url, 60_000);
    expect(products.length, errors).toBeGreaterThanOrEqual(12);
    const about = (await (await fetch(`${url}/api/content/pages/about-us`)).json()) as { body: string };
    expect(about.body).toMatch(/^Mango Shop began in 2025/);

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
  }, 180_000);
});
