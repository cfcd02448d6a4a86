/**
 * The cart of signed-in shoppers under a rush: a cart update cycle (add a box, change it to two,
 * remove it: three writes) and GET /api/cart, each at 1, 10 and 50 connections (one shopper per
 * connection), on the compiled server with its request log on (info). Interleaved rounds of
 * BENCH_SECONDS x BENCH_ROUNDS; with a baseline (--baseline REV) its shop runs the same rounds in
 * turn. What matters is the tail: p99 against p50 at each concurrency.
 */
import type { RunningShop } from './shop-server';
import { baselineRef, type Contender, contenders, databases, type DatabaseKind, startContender, thisCheckout, times } from './compare';
import { load, type LoadResult, summarise } from './http';
import { benchLimits, jsonHeaders, registerShoppers, type Shopper } from './shoppers';
import { printTable } from './table';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const concurrencies = [1, 10, 50];
export const cartGoals = { p99Ms: 250, tailTimes: 3 };

export interface CartRow extends LoadResult {
  database: DatabaseKind;
  contender: string;
  workload: 'cart update' | 'GET /api/cart';
  connections: number;
}

/** autocannon's request list for the cycle; its typings do not describe setupRequest's (request, context) pair. */
function cartCycle(shoppers: Shopper[]) {
  const free = [...shoppers];
  type Context = { shopper?: Shopper; itemId?: number };
  return {
    requests: [
      {
        method: 'POST',
        setupRequest: (request: Record<string, unknown>, context: Context) => {
          // A cycle cut short by a closed connection never gives its shopper back (the bench's nginx
          // keeps connections open for that reason): said plainly rather than as a crash further on.
          const shopper = free.pop();
          if (!shopper) throw new Error('every bench shopper is in use: a connection closed in the middle of a cycle');
          context.shopper = shopper;
          return { ...request, path: `/api/cart/${shopper.id}/items`, headers: jsonHeaders(shopper.cookie), body: JSON.stringify({ productId: 1, quantity: 1 }) };
        },
        onResponse: (_status: number, body: string, context: Context) => {
          context.itemId = (JSON.parse(body) as { items?: Array<{ id: number }> }).items?.[0]?.id;
        },
      },
      {
        method: 'PUT',
        setupRequest: (request: Record<string, unknown>, context: Context) => ({ ...request, path: `/api/cart/${context.shopper!.id}/items/${context.itemId}`, headers: jsonHeaders(context.shopper!.cookie), body: JSON.stringify({ quantity: 2 }) }),
      },
      {
        method: 'DELETE',
        setupRequest: (request: Record<string, unknown>, context: Context) => ({ ...request, path: `/api/cart/${context.shopper!.id}/items/${context.itemId}`, headers: { cookie: context.shopper!.cookie } }),
        onResponse: (_status: number, _body: string, context: Context) => {
          free.push(context.shopper!);
        },
      },
    ],
  } as never;
}

function cartReads(shoppers: Shopper[]) {
  let next = 0;
  return {
    requests: [
      {
        method: 'GET',
        setupRequest: (request: Record<string, unknown>) => {
          const shopper = shoppers[next++ % shoppers.length]!;
          return { ...request, path: `/api/cart/${shopper.id}`, headers: { cookie: shopper.cookie } };
        },
      },
    ],
  } as never;
}

export async function benchCart(): Promise<CartRow[]> {
  const rows: CartRow[] = [];
  for (const database of databases()) {
    const shops: Array<{ contender: Contender; shop: RunningShop; shoppers: Shopper[] }> = [];
    try {
      for (const contender of contenders()) {
        const shop = await startContender(contender, database, benchLimits);
        shops.push({ contender, shop, shoppers: [] });
        process.stdout.write(`  cart: registering ${Math.max(...concurrencies)} shoppers on ${contender.label} (${database})\n`);
        shops.at(-1)!.shoppers = await registerShoppers(shop.url, Math.max(...concurrencies));
        // Each shopper's cart holds a box of another variety, so GET /api/cart reads a real cart.
        for (const shopper of shops.at(-1)!.shoppers) {
          await (await fetch(`${shop.url}/api/cart/${shopper.id}/items`, { method: 'POST', headers: jsonHeaders(shopper.cookie), body: JSON.stringify({ productId: 2, quantity: 1 }) })).arrayBuffer();
        }
      }
      type Run = { key: string; row: Omit<CartRow, keyof LoadResult>; run: (duration: number) => Promise<LoadResult> };
      const runs: Run[] = [];
      for (const connections of concurrencies) {
        for (const { contender, shop, shoppers } of shops) {
          const some = shoppers.slice(0, connections);
          const base = { database, contender: contender.label, connections };
          runs.push({ key: `${contender.label} update ${connections}`, row: { ...base, workload: 'cart update' }, run: (d) => load('cart update', shop.url, d, connections, cartCycle(some)) });
          runs.push({ key: `${contender.label} get ${connections}`, row: { ...base, workload: 'GET /api/cart' }, run: (d) => load('GET /api/cart', shop.url, d, connections, cartReads(some)) });
        }
      }
      // A short untimed round of each first, so the JIT has warmed up before anything is measured.
      for (const one of runs) await one.run(1);
      const results = new Map<string, LoadResult[]>();
      for (let round = 0; round < rounds; round += 1) {
        process.stdout.write(`  cart: round ${round + 1}/${rounds} on ${database}\n`);
        for (const one of runs) results.set(one.key, [...(results.get(one.key) ?? []), await one.run(seconds)]);
      }
      for (const one of runs) rows.push({ ...one.row, ...summarise(results.get(one.key)!) });
    } finally {
      for (const { shop } of shops) await shop.stop();
    }
  }
  return rows;
}

export function printCart(rows: CartRow[]): void {
  console.log(`\nCart of signed-in shoppers, compiled server with its request log (medians of ${rounds} interleaved rounds of ${seconds} s; tail = p99 / p50)\n`);
  const baseLabel = baselineRef() ? contenders()[1]!.label : undefined;
  const baseOf = (row: CartRow) => rows.find((other) => other.contender === baseLabel && other.database === row.database && other.workload === row.workload && other.connections === row.connections);
  printTable(
    ['database', 'shop', 'workload', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'tail', 'errors/non-2xx', ...(baseLabel ? ['req/s vs base', 'p99 vs base'] : [])],
    rows.map((row) => {
      const base = row.contender === baseLabel ? undefined : baseOf(row);
      return [
        row.database,
        row.contender,
        row.workload,
        String(row.connections),
        row.requestsPerSecond.toFixed(0),
        String(row.p50),
        String(row.p99),
        `${(row.p99 / Math.max(row.p50, 1)).toFixed(1)}x`,
        `${row.errors}/${row.non2xx}`,
        ...(baseLabel ? [times(row.requestsPerSecond, base?.requestsPerSecond), times(row.p99, base?.p99)] : []),
      ];
    }),
  );
  const ours = rows.filter((row) => row.contender === thisCheckout && row.database === 'pglite');
  const at50 = ours.filter((row) => row.connections === 50);
  const p99Met = at50.every((row) => row.p99 <= cartGoals.p99Ms);
  const tailMet = ours.every((row) => row.p99 <= cartGoals.tailTimes * Math.max(row.p50, 1));
  console.log(`\nOn the embedded database: p99 at 50 connections ${at50.map((row) => `${row.p99} ms (${row.workload})`).join(', ')} (goal: at most ${cartGoals.p99Ms} ms): ${p99Met ? 'met' : 'NOT met'}; p99 within ${cartGoals.tailTimes}x p50 at every concurrency: ${tailMet ? 'met' : 'NOT met'}.`);
}
