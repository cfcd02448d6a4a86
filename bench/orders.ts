import { randomUUID } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runTypeScript } from './bench-process';
import { benchShipping as shipping, jsonHeaders, registerShoppers, type Shopper } from './shoppers';
import { median, percentile } from './http';
import { printTable } from './table';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const shopperCount = Number(process.env.BENCH_CONNECTIONS ?? 20);

/** In-stock varieties of the seeded catalogue: each shopper buys one of them, as real shoppers spread over the range. */
const productIds = [1, 2, 3, 7, 8];


export interface OrderResult {
  database: string;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  placed: number;
  failed: number;
}

/**
 * Order placement under load: every shopper (BENCH_CONNECTIONS, 20 by default) loops, adding a box
 * to the cart and placing it as an order, for BENCH_SECONDS per round. Only the POST /api/orders
 * calls are timed. Runs on the embedded database, and on PostgreSQL too when DATABASE_URL is set.
 */
export async function benchOrders(): Promise<OrderResult[]> {
  const databases: Array<NodeJS.ProcessEnv> = [{ ...process.env, DATABASE_URL: '' }];
  if (process.env.DATABASE_URL) databases.push(process.env);
  const results: OrderResult[] = [];
  for (const env of databases) {
    const target = await startTargets(env);
    try {
      const shoppers = await registerShoppers(target.shopUrl, shopperCount);
      await placeFor(target.shopUrl, shoppers, 1);
      const measured: Array<Omit<OrderResult, 'database'>> = [];
      for (let round = 0; round < rounds; round += 1) {
        process.stdout.write(`  round ${round + 1}/${rounds}: order placement on ${target.database}\n`);
        measured.push(await placeFor(target.shopUrl, shoppers, seconds));
      }
      results.push({
        database: target.database,
        ordersPerSecond: median(measured.map((m) => m.ordersPerSecond)),
        p50: median(measured.map((m) => m.p50)),
        p99: median(measured.map((m) => m.p99)),
        placed: measured.reduce((sum, m) => sum + m.placed, 0),
        failed: measured.reduce((sum, m) => sum + m.failed, 0),
      });
    } finally {
      await target.stop();
    }
  }
  return results;
}

/** All shoppers at once for `duration` seconds: add a box, place the order, again. */
async function placeFor(baseUrl: string, shoppers: Shopper[], duration: number): Promise<Omit<OrderResult, 'database'>> {
  const latencies: number[] = [];
  let failed = 0;
  // In-stock boxes need a delivery day: the soonest one offered to the bench's address.
  const offered = (await (await fetch(`${baseUrl}/api/delivery/dates?region=${encodeURIComponent(shipping.region)}`)).json()) as { dates: Array<{ date: string; state: { available: boolean } }> };
  const deliveryDate = offered.dates.find((one) => one.state.available)?.date;
  const endAt = performance.now() + duration * 1000;
  const started = performance.now();
  await Promise.all(
    shoppers.map(async (shopper) => {
      while (performance.now() < endAt) {
        const added = await fetch(`${baseUrl}/api/cart/${shopper.id}/items`, {
          method: 'POST',
          headers: jsonHeaders(shopper.cookie),
          body: JSON.stringify({ productId: productIds[shopper.id % productIds.length], quantity: 1 }),
        });
        await added.arrayBuffer();
        const before = performance.now();
        const placed = await fetch(`${baseUrl}/api/orders`, {
          method: 'POST',
          headers: jsonHeaders(shopper.cookie),
          body: JSON.stringify({ shipping, deliveryDate, idempotencyKey: randomUUID() }),
        });
        const answer = await placed.text();
        if (placed.status === 201) latencies.push(performance.now() - before);
        else {
          failed += 1;
          if (process.env.BENCH_DEBUG) console.log(placed.status, answer);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return { ordersPerSecond: latencies.length / elapsed, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), placed: latencies.length, failed };
}

export function printOrders(results: OrderResult[]): void {
  console.log(`\nOrder placement with ${shopperCount} concurrent shoppers (medians of ${rounds} rounds of ${seconds} s; each order follows one cart add)\n`);
  printTable(
    ['database', 'orders/s', 'p50 ms', 'p99 ms', 'orders placed', 'failed'],
    results.map((r) => [r.database, r.ordersPerSecond.toFixed(1), String(r.p50), String(r.p99), String(r.placed), String(r.failed)]),
  );
  if (results.length === 1) console.log('\nSet DATABASE_URL (a database for benchmarks only) to measure PostgreSQL as well.');
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts bench/target-server.ts in its own process and waits for its address. */
export async function startTargets(env: NodeJS.ProcessEnv = process.env): Promise<{ shopUrl: string; database: string; stop(): Promise<void> }> {
  const server = runTypeScript(path.join(here, 'target-server.ts'), {
    cwd: path.join(here, '..'),
    stdio: ['ignore', 'pipe', 'ignore'],
    env,
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: server.child.stdout! }).once('line', resolve);
    server.child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
  });
  const addresses = JSON.parse(firstLine) as { shopUrl: string; database: string };
  return { ...addresses, stop: () => server.stop() };
}
