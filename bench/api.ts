import readline from 'node:readline';
import { runNode } from './bench-process';
import { baselineRef, type Contender, contenders, databases, type DatabaseKind, startContender, thisCheckout, times } from './compare';
import { load, type LoadResult, median, summarise } from './http';
import { freeLoopbackPort, type RunningShop } from './shop-server';
import { printTable } from './table';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const apiGoalShare = 0.6;

export interface ApiRow extends LoadResult {
  database: DatabaseKind;
  contender: string;
  /** req/s against the bare server in the same rounds. */
  share: number;
}

/**
 * The shop's hot public reads (the product list, a product) on the compiled server with its
 * request log on (info, to a file), against a bare node:http server in a process of its own that
 * sends the product list's bytes. Rounds are interleaved so machine noise hits all targets; with a
 * baseline its shop runs the same rounds. On PostgreSQL too when DATABASE_URL is set.
 */
export async function benchApi(): Promise<ApiRow[]> {
  const rows: ApiRow[] = [];
  for (const database of databases()) {
    const shops: Array<{ contender: Contender; shop: RunningShop }> = [];
    let bare: { url: string; stop(): Promise<void> } | undefined;
    try {
      for (const contender of contenders()) shops.push({ contender, shop: await startContender(contender, database) });
      const bytes = Buffer.from(await (await fetch(`${shops[0]!.shop.url}/api/products`)).arrayBuffer());
      bare = await startBareServer(bytes);
      const targets: Array<{ key: string; contender: string; name: string; url: string }> = [{ key: 'bare', contender: '', name: 'bare node:http (same bytes as the product list)', url: bare.url }];
      for (const { contender, shop } of shops) {
        targets.push({ key: `${contender.label} list`, contender: contender.label, name: 'GET /api/products', url: `${shop.url}/api/products` });
        targets.push({ key: `${contender.label} one`, contender: contender.label, name: 'GET /api/products/:id', url: `${shop.url}/api/products/1` });
      }
      for (const target of targets) await load(target.name, target.url, 1, connections);
      const results = new Map<string, LoadResult[]>();
      for (let round = 0; round < rounds; round += 1) {
        process.stdout.write(`  api: round ${round + 1}/${rounds} on ${database}\n`);
        for (const target of targets) results.set(target.key, [...(results.get(target.key) ?? []), await load(target.name, target.url, seconds, connections)]);
      }
      // Each round's ratio against the bare server measured beside it, then the median of those.
      const bareRounds = results.get('bare')!;
      for (const target of targets) {
        const measured = results.get(target.key)!;
        const shares = measured.map((result, index) => result.requestsPerSecond / bareRounds[index]!.requestsPerSecond);
        rows.push({ ...summarise(measured), database, contender: target.contender, share: median(shares) });
      }
    } finally {
      await bare?.stop();
      for (const { shop } of shops) await shop.stop();
    }
  }
  return rows;
}

/** A bare node:http server in its own process that answers every request with `bytes` as JSON. */
async function startBareServer(bytes: Buffer): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freeLoopbackPort();
  const source = `const body = Buffer.from(${JSON.stringify(bytes.toString('base64'))}, 'base64');
require('node:http').createServer((request, response) => { response.setHeader('content-type', 'application/json; charset=utf-8'); response.end(body); }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const server = runNode(['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: server.child.stdout! }).once('line', () => resolve());
    server.child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => server.stop() };
}

export function printApi(rows: ApiRow[]): void {
  console.log(`\nPublic reads on the compiled server with its request log, against a bare node:http server sending the same bytes (medians of ${rounds} interleaved rounds of ${seconds} s, ${connections} connections; share = req/s against the bare server in the same round)\n`);
  const baseLabel = baselineRef() ? contenders()[1]!.label : undefined;
  printTable(
    ['database', 'shop', 'target', 'req/s', 'p50 ms', 'p99 ms', 'share', 'errors/non-2xx', ...(baseLabel ? ['req/s vs base'] : [])],
    rows.map((row) => {
      const base = baseLabel && row.contender && row.contender !== baseLabel ? rows.find((other) => other.contender === baseLabel && other.database === row.database && other.name === row.name) : undefined;
      return [row.database, row.contender || '-', row.name, row.requestsPerSecond.toFixed(0), String(row.p50), String(row.p99), `${(row.share * 100).toFixed(0)}%`, `${row.errors}/${row.non2xx}`, ...(baseLabel ? [times(row.requestsPerSecond, base?.requestsPerSecond)] : [])];
    }),
  );
  const lists = rows.filter((row) => row.contender === thisCheckout && row.name === 'GET /api/products');
  const met = lists.every((row) => row.share >= apiGoalShare && !row.errors && !row.non2xx);
  console.log(`\nProduct list at ${lists.map((row) => `${(row.share * 100).toFixed(0)}% (${row.database})`).join(', ')} of the bare server (goal: at least ${apiGoalShare * 100}%): ${met ? 'met' : 'NOT met'}.`);
}
