import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { testShipping } from '../testing/order-helpers';

/**
 * What the fault tests share: the compiled server run as `npm start` runs it, in a process of its
 * own that a test can kill, and shoppers that reach it over HTTP only.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const buildLock = path.join('dist', '.test-build-lock');

/**
 * Builds the server (and the web app, for tests of pages) as `npm start` does, a no-op when the
 * build is current. Test files run side by side, so one builds while the others wait for it.
 */
export async function buildServer(targets: Array<'server' | 'web'> = ['server']): Promise<void> {
  fs.mkdirSync('dist', { recursive: true });
  const deadline = Date.now() + 360_000;
  for (;;) {
    try {
      fs.mkdirSync(buildLock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a test run that was killed mid-build is taken over after a while.
      const held = fs.statSync(buildLock, { throwIfNoEntry: false });
      if (held && (Date.now() - held.mtimeMs > 400_000 || Date.now() > deadline)) fs.rmSync(buildLock, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-changed', ...targets], { encoding: 'utf8', timeout: 300_000 });
    if (build.status !== 0) throw new Error(`building the server failed:\n${build.stderr}`);
  } finally {
    fs.rmSync(buildLock, { recursive: true, force: true });
  }
}

export interface ShopProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote so far (its JSON log lines and any crash). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The limits a load test would trip on purpose are raised; everything else is the shop's default. */
const faultEnv = {
  NODE_ENV: 'production',
  // These tests count what a kill or a stop leaves behind: placements are only ever turned away past ORDERS_AT_ONCE.
  ORDERS_ANSWER_WITHIN_MS: '3600000',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  ADMIN_EMAIL: '',
  ADMIN_PASSWORD: '',
  SMTP_URL: '',
  STRIPE_SECRET_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  REGISTRATIONS_PER_IP_PER_HOUR: '1000',
  ORDERS_PER_USER_PER_HOUR: '1000',
  LOGIN_FAILS_PER_IP: '1000',
};

/** Starts `dist/server/main.js` and waits until it answers the product list. */
export async function startShop(env: Record<string, string>, port?: number): Promise<ShopProcess> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, ['--enable-source-maps', '--max-semi-space-size=2', 'dist/server/main.js'], {
    env: { ...process.env, DATABASE_URL: '', ...faultEnv, ...env, PORT: String(listenPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const shop: ShopProcess = { url: `http://127.0.0.1:${listenPort}`, port: listenPort, child, output: () => output, exited };
  const deadline = Date.now() + 90_000;
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() < deadline && !gone) {
    try {
      const response = await fetch(`${shop.url}/api/products`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return shop;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the shop did not start:\n${output.slice(-4000)}`);
}

/** Sends a signal and waits for the process to end. */
export async function stopShop(shop: ShopProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (shop.child.exitCode === null && shop.child.signalCode === null) shop.child.kill(signal);
  return shop.exited;
}

export interface CatalogueProduct {
  id: number;
  name: string;
  stock: number;
  isPreOrder: boolean;
}

export async function products(url: string): Promise<CatalogueProduct[]> {
  const response = await fetch(`${url}/api/products`);
  if (!response.ok) throw new Error(`products: ${response.status}`);
  return (await response.json()) as CatalogueProduct[];
}

let keys = 0;
export function checkoutKey(): string {
  keys += 1;
  return `fault-${process.pid}-${Date.now().toString(36)}-${keys.toString().padStart(6, '0')}`;
}

/** The answer to one request, or the way it failed before an answer came. */
export type Outcome = { status: number; body: Record<string, unknown>; ms: number } | { error: string; ms: number };

/**
 * A request on a connection of its own (so requests run side by side, as many shoppers' would),
 * whose failure is recorded rather than thrown: the tests count every kind.
 */
export function attempt(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number; onSent?: () => void } = {},
): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false, timeout: init.timeoutMs ?? 30_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, ms: Date.now() - started }));
      response.on('end', () => {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = { text };
        }
        resolve({ status: response.statusCode ?? 0, body, ms: Date.now() - started });
      });
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, ms: Date.now() - started }));
    // Sent: connected, and the whole request written to the socket.
    request.on('finish', () => init.onSent?.());
    request.end(init.body);
  });
}

/** A shopper with an account and a signed-in session, who fills a cart and places orders by HTTP. */
export class HttpShopper {
  private cookie = '';
  userId = 0;

  constructor(
    private readonly url: string,
    readonly email: string,
  ) {}

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', cookie: this.cookie };
  }

  /** The signed-in session's cookie, for a request of the test's own. */
  cookieHeader(): string {
    return this.cookie;
  }

  async signUp(): Promise<void> {
    const details = { username: this.email.split('@')[0]!, email: this.email, password: 'kumara-42', firstName: 'Aroha', lastName: 'Ngata', phone: '021 123 4567', address: '12 Ponsonby Road', city: '', postalCode: '', region: '' };
    const registered = await fetch(`${this.url}/api/register`, { method: 'POST', headers: this.headers(), body: JSON.stringify(details) });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    await this.signIn();
  }

  async signIn(): Promise<void> {
    const login = await fetch(`${this.url}/api/login`, { method: 'POST', headers: this.headers(), body: JSON.stringify({ email: this.email, password: 'kumara-42' }) });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
    this.cookie = (login.headers.getSetCookie().find((c) => c.startsWith('mango_session=')) ?? '').split(';')[0]!;
    this.userId = ((await login.json()) as { id: number }).id;
  }

  addToCart(productId: number, quantity: number): Promise<Outcome> {
    return attempt(`${this.url}/api/cart/${this.userId}/items`, { method: 'POST', headers: this.headers(), body: JSON.stringify({ productId, quantity }) });
  }

  /** Places the cart for the soonest delivery date offered (asked first, as checkout does). */
  async placeOrder(options: { timeoutMs?: number; onSent?: () => void } = {}): Promise<Outcome> {
    const dates = await attempt(`${this.url}/api/delivery/dates?region=${encodeURIComponent(testShipping.region)}`, { method: 'GET', headers: this.headers() });
    if (!('status' in dates)) return dates;
    const offered = (dates.body as { dates?: Array<{ date: string; state: { available: boolean } }> } | null)?.dates ?? [];
    const deliveryDate = offered.find((one) => one.state.available)?.date;
    return attempt(`${this.url}/api/orders`, { method: 'POST', headers: this.headers(), body: JSON.stringify({ shipping: testShipping, idempotencyKey: checkoutKey(), deliveryDate }), ...options });
  }
}

/** Shoppers made one after another (sign-up hashes a password; the shop counts per IP). */
export async function shoppers(url: string, count: number, name: string): Promise<HttpShopper[]> {
  const made: HttpShopper[] = [];
  for (let i = 0; i < count; i += 1) {
    const shopper = new HttpShopper(url, `${name}${i}-${Date.now().toString(36)}@example.nz`);
    await shopper.signUp();
    made.push(shopper);
  }
  return made;
}

export function statusCounts(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = 'status' in outcome ? String(outcome.status) : outcome.error;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
