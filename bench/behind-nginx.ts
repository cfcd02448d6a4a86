/**
 * Several shop processes behind nginx, as "Several processes behind nginx" in docs/operations.md runs them:
 * the repository's recipe with the processes' loopback ports (src/server/testing/nginx-config.ts),
 * in a temporary folder. Used for PostgreSQL with
 * BENCH_PROCESSES above 1: the embedded database is one process's by design.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leftover, runDaemon, untilReady } from './bench-process';
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
  const url = `http://127.0.0.1:${port}`;
  await untilReady(proxy, 'nginx', url);
  return {
    url,
    async stop() {
      await proxy.stop();
      fs.rmSync(dir, { recursive: true, force: true });
      leftover({ folder: dir }, true);
    },
  };
}
