import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load, type LoadResult, summarise } from './http';
import { runTypeScript } from './bench-process';
import { pad } from './table';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

/**
 * The shop's hot API paths against a bare Fastify route, in the same process run, that returns
 * the same bytes as the product list. Rounds are interleaved so machine noise hits all targets.
 */
export async function benchApi(): Promise<{ results: LoadResult[]; database: string }> {
  const target = await startTargets();
  try {
    return { results: await loadTargets(target.shopUrl, target.bareUrl), database: target.database };
  } finally {
    await target.stop();
  }
}

async function loadTargets(shopUrl: string, bareUrl: string): Promise<LoadResult[]> {
  const shoppers = await signInShoppers(shopUrl, connections);
  const free = [...shoppers];
  const cartCycle = {
    requests: [
      {
        method: 'POST' as const,
        setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => {
          const shopper = free.pop()!;
          context.shopper = shopper;
          return { ...request, path: `/api/cart/${shopper.id}/items`, headers: jsonHeaders(shopper.cookie), body: JSON.stringify({ productId: 1, quantity: 1 }) };
        },
        onResponse: (_status: number, body: string, context: Record<string, unknown>) => {
          context.itemId = (JSON.parse(body) as { items: Array<{ id: number }> }).items[0]?.id;
        },
      },
      {
        method: 'PUT' as const,
        setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => {
          const shopper = context.shopper as Shopper;
          return { ...request, path: `/api/cart/${shopper.id}/items/${context.itemId}`, headers: jsonHeaders(shopper.cookie), body: JSON.stringify({ quantity: 2 }) };
        },
      },
      {
        method: 'DELETE' as const,
        setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => {
          const shopper = context.shopper as Shopper;
          return { ...request, path: `/api/cart/${shopper.id}/items/${context.itemId}`, headers: { cookie: shopper.cookie } };
        },
        onResponse: (_status: number, _body: string, context: Record<string, unknown>) => {
          free.push(context.shopper as Shopper);
        },
      },
    ],
  };

  const targets: Array<[string, (duration: number) => Promise<LoadResult>]> = [
    ['bare Fastify route (same bytes as the product list)', (d) => load('bare route', `${bareUrl}/products`, d, connections)],
    ['GET /api/products', (d) => load('GET /api/products', `${shopUrl}/api/products`, d, connections)],
    ['GET /api/products/:id', (d) => load('GET /api/products/:id', `${shopUrl}/api/products/1`, d, connections)],
    // autocannon's typings do not describe setupRequest's (request, context) pair; the shapes above are what it passes.
    [
      'cart add/update/remove',
      (d) => {
        // A run can end mid-cycle with shoppers still leased; every client is gone by then.
        free.splice(0, free.length, ...shoppers);
        return load('cart add/update/remove', shopUrl, d, connections, cartCycle as never);
      },
    ],
  ];
  // A short untimed round per target first, so the JIT has warmed up before anything is measured.
  for (const [, run] of targets) await run(1);
  const byTarget = new Map<string, LoadResult[]>();
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, run] of targets) {
      process.stdout.write(`  round ${round + 1}/${rounds}: ${name}\n`);
      byTarget.set(name, [...(byTarget.get(name) ?? []), await run(seconds)]);
    }
  }
  return [...byTarget.values()].map(summarise);
}

export function printApi({ results, database }: { results: LoadResult[]; database: string }): void {
  const bare = results[0]!;
  console.log(`\nAPI throughput on ${database} (medians of interleaved rounds; ratio = req/s against the bare route)\n`);
  console.log(`${pad('target', 52)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('ratio', 8)}errors/non-2xx`);
  for (const r of results) {
    const ratio = `${Math.round((r.requestsPerSecond / bare.requestsPerSecond) * 100)}%`;
    console.log(`${pad(r.name, 52)}${pad(r.requestsPerSecond.toFixed(0), 10)}${pad(String(r.p50), 9)}${pad(String(r.p99), 9)}${pad(ratio, 8)}${r.errors}/${r.non2xx}`);
  }
  const listRatio = results[1]!.requestsPerSecond / bare.requestsPerSecond;
  console.log(`\nProduct list at ${(listRatio * 100).toFixed(0)}% of the bare route (goal: at least 50%).`);
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts bench/target-server.ts in its own process and waits for its addresses. */
export async function startTargets(env: NodeJS.ProcessEnv = process.env): Promise<{ shopUrl: string; bareUrl: string; database: string; stop(): Promise<void> }> {
  const server = runTypeScript(path.join(here, 'target-server.ts'), {
    cwd: path.join(here, '..'),
    stdio: ['ignore', 'pipe', 'ignore'],
    env,
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: server.child.stdout! }).once('line', resolve);
    server.child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
  });
  const addresses = JSON.parse(firstLine) as { shopUrl: string; bareUrl: string; database: string };
  return { ...addresses, stop: () => server.stop() };
}

export interface Shopper {
  id: number;
  cookie: string;
}

export function jsonHeaders(cookie: string) {
  return { cookie, 'content-type': 'application/json' };
}

export async function signInShoppers(baseUrl: string, count: number): Promise<Shopper[]> {
  const shoppers: Shopper[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `bench${i}@example.nz`;
    const password = 'bench-password-1';
    await fetch(`${baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `bench${i}`, email, password, firstName: 'Bench', lastName: 'Shopper', phone: '021 555 0100', address: '1 Queen Street', city: '', postalCode: '', region: '' }),
    });
    const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const user = (await login.json()) as { id: number };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    shoppers.push({ id: user.id, cookie });
  }
  return shoppers;
}
