/**
 * Several shop processes behind nginx, as "Several processes behind nginx" in docs/operations.md runs them:
 * the repository's recipe with the processes' loopback ports (src/server/testing/nginx-config.ts),
 * in a temporary folder. Used for PostgreSQL with
 * BENCH_PROCESSES above 1: the embedded database is one process's by design.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leftover, runDaemon } from './bench-process';
import { writeNginxConfig } from '../src/server/testing/nginx-config';

/** How many shop processes serve on PostgreSQL (BENCH_PROCESSES, 1 by default: no nginx). */
export const benchProcesses = Math.max(1, Number(process.env.BENCH_PROCESSES ?? 1));

export function nginxBinary(): string {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error('BENCH_PROCESSES needs nginx (Debian: apt-get install nginx)');
  return found;
}

/** Starts nginx on `port` in front of the shops at `shopPorts`; answers its address and how to stop it. */
export async function startNginx(shopPorts: number[], port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-nginx-'));
  leftover({ folder: dir });
  // A load test's client sends far more than nginx's default 1000 requests on one connection, and
  // autocannon would start a cut cart cycle again without its shopper (bench/cart.ts).
  writeNginxConfig(dir, shopPorts, port, '  keepalive_requests 1000000;\n');
  const proxy = runDaemon(nginxBinary(), ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], 'SIGQUIT');
  const errors = proxy.errors;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proxy.hasExited()) throw new Error(`nginx stopped: ${errors()}`);
    try {
      const answer = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      await answer.arrayBuffer();
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proxy.stop();
      throw new Error(`nginx did not answer on ${url}: ${errors()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      await proxy.stop();
      fs.rmSync(dir, { recursive: true, force: true });
      leftover({ folder: dir }, true);
    },
  };
}
