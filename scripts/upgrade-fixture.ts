/**
 * Makes the upgrade test's picture of a release (src/server/db/upgrade-fixtures/<name>/): what a
 * shop on that release holds and shows. Run it against that release, checked out and started on
 * an empty embedded database with an admin (see docs/decisions/0031-upgrade-fixtures.md):
 *
 *   tsx scripts/upgrade-fixture.ts fill --url http://127.0.0.1:PORT --admin-email E --admin-password P --out DIR
 *     fills the shop over HTTP (orders through each status, a pre-order, a claim with photos, a
 *     moved delivery day) and records what the API answers, as shoppers and as staff;
 *   (stop that shop)
 *   tsx scripts/upgrade-fixture.ts export --data-dir DATA_DIR --out DIR
 *     writes every table's rows and the sequences as JSON, with how many migrations made the database.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { openPglite, queryRows } from '../src/server/db/client';
import { exportSequences, exportTables } from '../src/server/db/table-rows';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string' }, 'admin-email': { type: 'string' }, 'admin-password': { type: 'string' }, out: { type: 'string' }, 'data-dir': { type: 'string' } },
});
const out = path.resolve(values.out ?? '.');
fs.mkdirSync(out, { recursive: true });

interface Recorded {
  as: string;
  method: 'GET';
  url: string;
  status: number;
  /** The JSON answer, or the SHA-256 of a picture's bytes. */
  body?: unknown;
  sha256?: string;
}

class Caller {
  cookie = '';
  userId = 0;
  token = '';
  constructor(
    readonly name: string,
    readonly url: string,
  ) {}

  async call(method: string, url: string, body?: unknown, extra: RequestInit = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.cookie, origin: this.url };
    if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    return fetch(`${this.url}${url}`, { method, headers, body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body), ...extra });
  }

  async json<T>(method: string, url: string, body?: unknown, expected = 200): Promise<T> {
    const response = await this.call(method, url, body);
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${this.name} ${method} ${url}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async signIn(email: string, password: string): Promise<void> {
    const response = await this.call('POST', '/api/login', { email, password });
    if (response.status !== 200) throw new Error(`sign-in ${email}: ${response.status} ${await response.text()}`);
    this.cookie = (response.headers.getSetCookie().find((c) => c.startsWith('mango_session=')) ?? '').split(';')[0]!;
    this.token = this.cookie.slice('mango_session='.length);
    this.userId = ((await response.json()) as { id: number }).id;
  }
}

const shipping = { name: 'Aroha Ngata', phone: '021 123 4567', street: '12 Ponsonby Road', suburb: 'Ponsonby', city: 'Auckland', postcode: '1011', region: 'Auckland', deliveryInstructions: 'Leave by the door' };

async function fill(): Promise<void> {
  const url = values.url!;
  const staff = new Caller('staff', url);
  await staff.signIn(values['admin-email']!, values['admin-password']!);
  const shoppers: Caller[] = [];
  for (const name of ['kiri', 'tama', 'mere']) {
    const shopper = new Caller(name, url);
    const email = `${name}@example.nz`;
    await shopper.json('POST', '/api/register', { username: name, email, password: 'kumara-42', firstName: name[0]!.toUpperCase() + name.slice(1), lastName: 'Ngata', phone: '021 123 4567', address: '12 Ponsonby Road', city: 'Auckland', postalCode: '1011', region: 'Auckland' }, 201);
    await shopper.signIn(email, 'kumara-42');
    shoppers.push(shopper);
  }
  const [kiri, tama, mere] = shoppers as [Caller, Caller, Caller];
  const products = await staff.json<Array<{ id: number; stock: number; isPreOrder: boolean; name: string }>>('GET', '/api/products');
  const inStock = products.filter((p) => !p.isPreOrder && p.stock > 10);
  const preOrder = products.find((p) => p.isPreOrder);
  if (inStock.length < 2 || !preOrder) throw new Error('the seeded catalogue should have two products in stock and a pre-order');

  const firstDate = async (shopper: Caller): Promise<string> => {
    const offered = await shopper.json<{ dates: Array<{ date: string; state: { available: boolean } }> }>('GET', '/api/delivery/dates?region=Auckland');
    return offered.dates.find((d) => d.state.available)!.date;
  };
  const place = async (shopper: Caller, lines: Array<[number, number]>, key: string, { preOrder = false } = {}) => {
    for (const [productId, quantity] of lines) await shopper.json('POST', `/api/cart/${shopper.userId}/items`, { productId, quantity });
    // A pre-order gets its delivery day when its boxes are allocated.
    const deliveryDate = preOrder ? undefined : await firstDate(shopper);
    const placed = await shopper.json<{ order: { number: string } }>('POST', '/api/orders', { shipping, idempotencyKey: `${key}-0123456789`, deliveryDate }, 201);
    return placed.order.number;
  };
  const advance = async (number: string, until: string) => {
    for (const status of ['paid', 'packed', 'shipped', 'delivered']) {
      await staff.json('POST', `/api/admin/orders/${number}/status`, { status, ...(status === 'shipped' ? { carrier: 'nz_post', trackingNumber: 'NZP-UPGRADE-1' } : {}) });
      if (status === until) return;
    }
  };

  // Kiri: an order delivered and claimed with two photos, and one left waiting for payment.
  const delivered = await place(kiri, [[inStock[0]!.id, 3], [inStock[1]!.id, 1]], 'upgrade-kiri-1');
  await advance(delivered, 'delivered');
  const claimable = await kiri.json<{ lines: Array<{ lineId: number }> }>('GET', `/api/orders/${delivered}/claims`);
  const form = new FormData();
  form.append('claim', JSON.stringify({ lines: [{ lineId: claimable.lines[0]!.lineId, quantity: 2 }], reason: 'bruised', description: 'Two of the mangoes arrived with deep bruises on one side.', outcome: 'refund' }));
  for (const colour of [{ r: 200, g: 120, b: 30 }, { r: 120, g: 90, b: 40 }]) {
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: colour } }).jpeg({ quality: 70 }).toBuffer();
    form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'bruise.jpg');
  }
  await kiri.json('POST', `/api/orders/${delivered}/claims`, form, 201);
  const waiting = await place(kiri, [[inStock[1]!.id, 2]], 'upgrade-kiri-2');

  // Tama: a pre-order, paid; and an order shipped, moved to a later delivery day first.
  const preOrdered = await place(tama, [[preOrder.id, 2]], 'upgrade-tama-1', { preOrder: true });
  await advance(preOrdered, 'paid');
  const shipped = await place(tama, [[inStock[0]!.id, 1]], 'upgrade-tama-2');
  const later = (await tama.json<{ dates: Array<{ date: string; state: { available: boolean } }> }>('GET', '/api/delivery/dates?region=Auckland')).dates.filter((d) => d.state.available)[2]!.date;
  await staff.json('POST', `/api/admin/orders/${shipped}/delivery-date`, { deliveryDate: later, reason: 'The truck is full that day' });
  await advance(shipped, 'shipped');

  // Mere: an order cancelled by staff, and a cart left full.
  const cancelled = await place(mere, [[inStock[0]!.id, 1]], 'upgrade-mere-1');
  await staff.json('POST', `/api/admin/orders/${cancelled}/status`, { status: 'cancelled' });
  await mere.json('POST', `/api/cart/${mere.userId}/items`, { productId: inStock[1]!.id, quantity: 2 });

  // What each of them, and staff, is shown.
  const recorded: Recorded[] = [];
  const record = async (caller: Caller, address: string) => {
    const response = await caller.call('GET', address);
    const bytes = Buffer.from(await response.arrayBuffer());
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    recorded.push({ as: caller.name, method: 'GET', url: address, status: response.status, ...(isJson ? { body: JSON.parse(bytes.toString('utf8')) as unknown } : { sha256: createHash('sha256').update(bytes).digest('hex') }) });
    return isJson ? (JSON.parse(bytes.toString('utf8')) as unknown) : undefined;
  };
  for (const [shopper, numbers] of [[kiri, [delivered, waiting]], [tama, [preOrdered, shipped]], [mere, [cancelled]]] as const) {
    await record(shopper, '/api/me');
    await record(shopper, '/api/orders');
    await record(shopper, `/api/cart/${shopper.userId}`);
    for (const number of numbers) {
      await record(shopper, `/api/orders/${number}`);
      await record(shopper, `/api/orders/${number}/claims`);
    }
  }
  const { claims } = (await record(staff, '/api/admin/claims?status=all')) as { claims: Array<{ id: number }> };
  for (const claim of claims) {
    const detail = (await record(staff, `/api/admin/claims/${claim.id}`)) as { photoUrls: string[] };
    for (const photo of detail.photoUrls) await record(kiri, photo);
  }
  await record(staff, '/api/admin/orders');
  for (const number of [delivered, waiting, preOrdered, shipped, cancelled]) await record(staff, `/api/admin/orders/${number}`);
  await record(staff, '/api/products');
  for (const product of [inStock[0]!, inStock[1]!, preOrder]) await record(staff, `/api/products/${product.id}`);

  const sessions = Object.fromEntries([staff, ...shoppers].map((caller) => [caller.name, caller.token]));
  fs.writeFileSync(path.join(out, 'answers.json'), `${JSON.stringify({ recordedAt: new Date().toISOString(), sessions, answers: recorded }, null, 1)}\n`);
  console.log(`Recorded ${recorded.length} answers in ${path.join(out, 'answers.json')}. Stop the shop, then run the export.`);
}

async function exportRows(): Promise<void> {
  const database = await openPglite(path.join(path.resolve(values['data-dir']!), 'pglite'));
  try {
    const tables = await exportTables(database.db);
    const [applied] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    fs.writeFileSync(path.join(out, 'tables.json'), `${JSON.stringify(tables)}\n`);
    fs.writeFileSync(path.join(out, 'sequences.json'), `${JSON.stringify(await exportSequences(database.db), null, 2)}\n`);
    fs.writeFileSync(path.join(out, 'release.json'), `${JSON.stringify({ migrations: applied!.n }, null, 2)}\n`);
    console.log(`Wrote ${Object.keys(tables).length} tables made by ${applied!.n} migrations to ${out}.`);
  } finally {
    await database.close();
  }
}

if (positionals[0] === 'fill') await fill();
else if (positionals[0] === 'export') await exportRows();
else {
  console.error('Usage: tsx scripts/upgrade-fixture.ts fill|export ... (see the comment at the top)');
  process.exitCode = 2;
}
