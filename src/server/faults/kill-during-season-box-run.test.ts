import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, nzToday } from '../../contracts/dates';
import { defaultDeliverySettings } from '../../contracts/delivery';
import type { AdminSubscriptionDetail, SubscriptionRunResult } from '../../contracts/subscriptions';
import { openPglite, queryRows } from '../db/client';
import { whyNot } from '../modules/delivery/calendar';
import { testShipping } from '../testing/order-helpers';
import { buildServer, type ShopProcess, sleep, startShop, stopShop } from './harness';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-season-kill-'));
const admin = { email: 'owner@example.nz', password: 'a long pass phrase' };
const subscribers = 400;
let shop: ShopProcess | undefined;

afterAll(async () => {
  if (shop) await stopShop(shop, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A delivery day for Auckland a fortnight or so ahead: open, no holiday, its packing far off. */
function comingDeliveryDay(): string {
  for (let date = addDays(nzToday(new Date()), 14); ; date = addDays(date, 1)) {
    if (whyNot({ settings: defaultDeliverySettings, region: 'Auckland', booked: new Map(), boxes: 0 }, date, addDays(date, -1)) === null) return date;
  }
}

async function signInAdmin(url: string): Promise<string> {
  const login = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
  expect(login.status).toBe(200);
  return (login.headers.getSetCookie().find((c) => c.startsWith('mango_session=')) ?? '').split(';')[0]!;
}

const startRun = (url: string, cookie: string, deliveryDate: string) =>
  fetch(`${url}/api/admin/subscription-runs`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: url }, body: JSON.stringify({ deliveryDate }) });

describe.skipIf(Boolean(process.env.DATABASE_URL))('kill -9 in the middle of a season box run (embedded database)', () => {
  it('leaves every order made once: the restarted run makes the rest, and none twice', async () => {
    await buildServer();
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password };
    // The shop makes its database, then stops: the subscriptions are written straight into it.
    shop = await startShop(env);
    expect((await stopShop(shop)).code).toBe(0);
    const date = comingDeliveryDay();
    const database = await openPglite(path.join(dataDir, 'pglite'));
    let productId: number;
    let firstSubscription = 0;
    try {
      const [product] = await queryRows<{ id: number }>(
        database.db,
        sql`insert into products (name, description, price_cents, image_url, category, stock, subscribable) values ('Killed Run Mangoes', 'Boxes for a run cut short.', 5000, '/images/products/alphonso.jpg', 'Premium', ${subscribers * 2}, true) returning id`,
      );
      productId = product!.id;
      await database.db.execute(sql`
        with made as (
          insert into users (username, email, password_hash, first_name, last_name, phone, address)
          select 'season' || n, 'season' || n || '@example.nz', 'not-a-hash', 'Aroha', 'Ngata', '021 123 4567', '12 Ponsonby Road' from generate_series(1, ${subscribers}) as n
          returning id
        )
        insert into subscriptions (user_id, product_id, quantity, every, first_delivery_date, payment_method, ship_name, ship_phone, ship_street, ship_city, ship_postcode, ship_region, told_unit_price_cents)
        select id, ${productId}, 1, 'week', ${date}, 'bank_transfer', ${testShipping.name}, ${testShipping.phone}, ${testShipping.street}, ${testShipping.city}, ${testShipping.postcode}, 'Auckland', 5000 from made`);
      const [oldest] = await queryRows<{ first: number }>(database.db, sql`select min(id)::int as first from subscriptions`);
      firstSubscription = oldest!.first;
    } finally {
      await database.close();
    }

    shop = await startShop(env);
    let cookie = await signInAdmin(shop.url);
    // The day packs every box (the subscriptions were written straight in, past its 40 a day).
    const settings = (await (await fetch(`${shop.url}/api/admin/delivery`, { headers: { cookie } })).json()) as Record<string, unknown>;
    const roomy = await fetch(`${shop.url}/api/admin/delivery`, { method: 'PUT', headers: { cookie, origin: shop.url, 'content-type': 'application/json' }, body: JSON.stringify({ ...settings, boxesPerDay: subscribers * 2 }) });
    expect(roomy.status).toBe(200);
    let answered = false;
    const cut = startRun(shop.url, cookie, date)
      .then(() => (answered = true))
      .catch(() => undefined);
    // Killed a moment in, as soon as the oldest subscription's order is made (the run goes oldest
    // first): some orders made, most not yet.
    const firstOrdered = async () => {
      const detail = await fetch(`${shop!.url}/api/admin/subscriptions/${firstSubscription}`, { headers: { cookie } }).then((response) => response.json() as Promise<AdminSubscriptionDetail>);
      return detail.history.some((entry) => entry.date === date && entry.state === 'ordered');
    };
    const deadline = Date.now() + 60_000;
    while (!answered && Date.now() < deadline && !(await firstOrdered())) await sleep(5);
    shop.child.kill('SIGKILL');
    expect((await shop.exited).signal).toBe('SIGKILL');
    await cut;
    expect(answered, 'the run finished before the kill: make it longer').toBe(false);

    shop = await startShop(env);
    cookie = await signInAdmin(shop.url);
    const restarted = await startRun(shop.url, cookie, date);
    expect(restarted.status).toBe(200);
    const result = (await restarted.json()) as SubscriptionRunResult;
    // The kill cut the run: the first made some, the restarted one made the rest.
    expect(result.ordered).toBeGreaterThan(0);
    expect(result.ordered).toBeLessThan(subscribers);
    const again = (await (await startRun(shop.url, cookie, date)).json()) as SubscriptionRunResult;
    expect(again.ordered).toBe(0);
    expect((await stopShop(shop)).code).toBe(0);
    shop = undefined;

    const after = await openPglite(path.join(dataDir, 'pglite'));
    try {
      const [counts] = await queryRows<{ orders: number; keys: number; lines: number; ordered: number; stock: number; moved: number }>(
        after.db,
        sql`select
          (select count(*)::int from orders where idempotency_key like 'season-box:%') as orders,
          (select count(distinct idempotency_key)::int from orders where idempotency_key like 'season-box:%') as keys,
          (select count(*)::int from order_lines where product_id = ${productId}) as lines,
          (select count(*)::int from subscription_deliveries where delivery_date = ${date} and state = 'ordered') as ordered,
          (select stock from products where id = ${productId}) as stock,
          (select coalesce(sum(-change), 0)::int from stock_movements where product_id = ${productId} and reason = 'order') as moved`,
      );
      expect(counts).toEqual({ orders: subscribers, keys: subscribers, lines: subscribers, ordered: subscribers, stock: subscribers, moved: subscribers });
      // Every order's confirmation is in the outbox once.
      const [mail] = await queryRows<{ n: number; distinct: number }>(after.db, sql`select count(*)::int as n, count(distinct subject)::int as distinct from mail_outbox where subject like 'Your order MS-%'`);
      expect(mail).toEqual({ n: subscribers, distinct: subscribers });
    } finally {
      await after.close();
    }
  }, 300_000);
});
