/**
 * cache: a visitor's /shop and product page through Varnish (the repository's VCL,
 * deploy/varnish/) against the same pages from the shop process alone, at BENCH_CACHE_CONNECTIONS
 * (50) connections, in interleaved rounds (BENCH_SECONDS x BENCH_ROUNDS). Goals
 * (docs/shared-cache.md): at least 10x the requests a second of the shop alone, p99 under 10 ms.
 * The load comes from wrk (Debian package wrk) when installed: autocannon, in Node, cannot read
 * 20 kB pages faster than a few thousand a second, and would measure itself.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leftover, runDaemon, untilReady } from './bench-process';
import { interleavedRounds, load, type LoadResult, summarise } from './http';
import { freeLoopbackPort, startShop } from './shop-server';
import { printTable } from './table';
import { varnishArguments, varnishBinary, writeVarnishConfig } from '../src/server/testing/varnish-config';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CACHE_CONNECTIONS ?? 50);
const goalRatio = 10;
const goalP99Ms = 10;

/** What Chromium sends for a page. */
const pageHeaders = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br, zstd' };

const wrk = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((candidate) => fs.existsSync(candidate));

/** A number of wrk's with its unit (`512.00us`, `1.34ms`, `2.01s`), in milliseconds. */
function wrkMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/** One wrk round, as a LoadResult: two threads, the connections given, the latency distribution. */
function wrkLoad(name: string, url: string, duration: number): LoadResult {
  const headers = Object.entries(pageHeaders).flatMap(([header, value]) => ['-H', `${header}: ${value}`]);
  const run = spawnSync(wrk!, ['-t2', `-c${connections}`, `-d${duration}s`, '--latency', ...headers, url], { encoding: 'utf8', timeout: (duration + 30) * 1000 });
  const out = run.stdout ?? '';
  const line = (pattern: RegExp) => pattern.exec(out)?.[1] ?? '';
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    name,
    requestsPerSecond: Number(line(/Requests\/sec:\s+([\d.]+)/)),
    p50: Math.round(wrkMs(line(/^\s+50%\s+(\S+)/m)) * 10) / 10,
    p99: Math.round(wrkMs(line(/^\s+99%\s+(\S+)/m)) * 10) / 10,
    errors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: Number(line(/Non-2xx or 3xx responses:\s+(\d+)/) || 0),
  };
}

export interface CacheTarget extends LoadResult {
  /** The lowest and highest requests a second of the rounds. */
  spread: [number, number];
}

async function startVarnish(backendPort: number, port: number, purgePort: number): Promise<{ url: string; stop(): Promise<void> }> {
  const binary = varnishBinary();
  if (!binary) throw new Error('the cache report needs Varnish with its modules (Debian: apt-get install varnish varnish-modules)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-varnish-'));
  leftover({ folder: dir });
  const varnish = runDaemon(binary, varnishArguments(dir, writeVarnishConfig(dir, backendPort), port, purgePort), 'SIGTERM');
  const url = `http://127.0.0.1:${port}`;
  await untilReady(varnish, 'varnishd', url);
  return {
    url,
    async stop() {
      await varnish.stop();
      fs.rmSync(dir, { recursive: true, force: true });
      leftover({ folder: dir }, true);
    },
  };
}

export async function benchCache(): Promise<CacheTarget[]> {
  const [varnishPort, purgePort] = [await freeLoopbackPort(), await freeLoopbackPort()];
  const shop = await startShop({ env: { LOG_LEVEL: 'info', VARNISH_URL: `http://127.0.0.1:${purgePort}` } });
  const varnish = await startVarnish(Number(new URL(shop.url).port), varnishPort, purgePort);
  try {
    const productId = ((await (await fetch(`${shop.url}/api/products`)).json()) as Array<{ id: number }>)[0]!.id;
    const targets: Array<[string, string]> = [
      ['GET /shop, the shop alone', `${shop.url}/shop`],
      ['GET /shop, through Varnish', `${varnish.url}/shop`],
      [`GET /product/${productId}, the shop alone`, `${shop.url}/product/${productId}`],
      [`GET /product/${productId}, through Varnish`, `${varnish.url}/product/${productId}`],
    ];
    const run = async ([name, url]: [string, string], duration: number) => (wrk ? wrkLoad(name, url, duration) : load(name, url, duration, connections, { headers: pageHeaders }));
    const byTarget = await interleavedRounds(targets, rounds, seconds, run);
    return byTarget.map((results) => {
      const perSecond = results.map((r) => r.requestsPerSecond);
      return { ...summarise(results), spread: [Math.min(...perSecond), Math.max(...perSecond)] as [number, number] };
    });
  } finally {
    await varnish.stop();
    await shop.stop();
  }
}

export function printCache(targets: CacheTarget[]): void {
  console.log(`\nVisitors' pages through Varnish against the shop process alone (medians of ${rounds} interleaved rounds of ${seconds} s, ${connections} connections, load from ${wrk ? 'wrk' : 'autocannon: install wrk for figures that measure the servers, not the load'})\n`);
  printTable(
    ['target', 'req/s', 'req/s min-max', 'p50 ms', 'p99 ms', 'errors/non-2xx'],
    targets.map((t) => [t.name, t.requestsPerSecond.toFixed(0), `${t.spread[0].toFixed(0)}-${t.spread[1].toFixed(0)}`, String(t.p50), String(t.p99), `${t.errors}/${t.non2xx}`]),
  );
  const pairs = [targets.slice(0, 2), targets.slice(2, 4)] as Array<[CacheTarget, CacheTarget]>;
  for (const [alone, cached] of pairs) {
    const ratio = cached.requestsPerSecond / alone.requestsPerSecond;
    const met = ratio >= goalRatio && cached.p99 < goalP99Ms && !cached.errors && !cached.non2xx;
    console.log(`${cached.name}: ${ratio.toFixed(1)}x the shop alone, p99 ${cached.p99} ms (goal: at least ${goalRatio}x, p99 under ${goalP99Ms} ms): ${met ? 'met' : 'NOT met'}.`);
  }
}
