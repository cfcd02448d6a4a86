import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/client';
import { expectWholeShop } from './consistency';
import { buildServer, type HttpShopper, type Outcome, products, type ShopProcess, shoppers, sleep, startShop, statusCounts, stopShop } from './harness';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-kill-'));
let shop: ShopProcess | undefined;

afterAll(async () => {
  if (shop) await stopShop(shop, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Confirmation mails written to the outbox folder, by order number (one file per mail). */
function confirmationFiles(): Map<string, number> {
  const folder = path.join(dataDir, 'outbox');
  const byOrder = new Map<string, number>();
  if (!fs.existsSync(folder)) return byOrder;
  for (const name of fs.readdirSync(folder)) {
    if (!name.endsWith('.eml')) continue;
    const subject = /^Subject: Your order (MS-\d+) at /m.exec(fs.readFileSync(path.join(folder, name), 'utf8'));
    if (subject) byOrder.set(subject[1]!, (byOrder.get(subject[1]!) ?? 0) + 1);
  }
  return byOrder;
}

/** Each shopper puts a box in the cart and orders it, again and again, until told to stop; `placing` counts the placements on their way. */
function orderInLoops(buyers: HttpShopper[], productId: number, until: () => boolean, outcomes: Outcome[], placing: { now: number }): Promise<void[]> {
  return Promise.all(
    buyers.map(async (buyer) => {
      while (!until()) {
        const added = await buyer.addToCart(productId, 1);
        if (!('status' in added)) return;
        placing.now += 1;
        const placed = await buyer.placeOrder().finally(() => (placing.now -= 1));
        outcomes.push(placed);
        if (!('status' in placed)) return;
      }
    }),
  );
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('kill -9 in the middle of order placement (embedded database)', () => {
  it('leaves no half order, no lost stock and no lost e-mail: the restarted shop sends every confirmation once', async () => {
    await buildServer();
    shop = await startShop({ DATA_DIR: dataDir });
    const box = (await products(shop.url)).filter((p) => !p.isPreOrder).sort((a, b) => b.stock - a.stock)[0]!;
    expect(box.stock).toBeGreaterThanOrEqual(40);
    const buyers = await shoppers(shop.url, 8, 'killed');

    const outcomes: Outcome[] = [];
    let killed = false;
    const answered = () => outcomes.filter((o) => 'status' in o && o.status === 201).length;
    const placing = { now: 0 };
    const loops = orderInLoops(buyers, box.id, () => killed, outcomes, placing);
    const deadline = Date.now() + 60_000;
    // Killed with half the shoppers placing: with fewer, a fast shop may have answered them all
    // before the kill, the answers still on their way (cart adds alone may be in flight at some moments).
    while ((answered() < 12 || placing.now < 4) && Date.now() < deadline) await sleep(1);
    shop.child.kill('SIGKILL');
    killed = true;
    expect((await shop.exited).signal).toBe('SIGKILL');
    await loops;

    const placed = outcomes.flatMap((o) => ('status' in o && o.status === 201 ? [String((o.body.order as { number: string }).number)] : []));
    const counts = statusCounts(outcomes);
    // The kill cut requests off mid-placement, and every other answer was a placed order.
    expect(placed.length, JSON.stringify(counts)).toBeGreaterThanOrEqual(12);
    expect(outcomes.length - placed.length, JSON.stringify(counts)).toBeGreaterThan(0);
    expect(Object.keys(counts).filter((key) => key !== '201' && /^\d+$/.test(key)), JSON.stringify(counts)).toEqual([]);

    // Restarted on the same folder, the shop delivers what waited in its outbox: at least every
    // answered order's confirmation, then whatever else was committed (no new file for 2 s).
    const killedOutput = shop.output();
    shop = await startShop({ DATA_DIR: dataDir });
    let delivered = confirmationFiles();
    let stableSince = Date.now();
    const mailDeadline = Date.now() + 60_000;
    while (Date.now() < mailDeadline && (!placed.every((number) => delivered.has(number)) || Date.now() - stableSince < 2_000)) {
      await sleep(200);
      const now = confirmationFiles();
      if (now.size !== delivered.size) stableSince = Date.now();
      delivered = now;
    }
    expect((await stopShop(shop)).code).toBe(0);
    // A file written twice would overwrite itself: count deliveries in both processes' logs instead.
    const deliveries = new Map<string, number>();
    for (const match of (killedOutput + shop.output()).matchAll(/"mail":(\d+),[^\n]*"msg":"mail delivered"/g)) deliveries.set(match[1]!, (deliveries.get(match[1]!) ?? 0) + 1);
    shop = undefined;

    const state = await expectWholeShop(await openPglite(path.join(dataDir, 'pglite')), placed);
    const numbers = state.orders.map((o) => o.number);
    expect(state.unsentMail).toBe(0);
    expect(state.failedMail).toBe(0);
    // One file per order, none twice: a mail re-sent after the crash overwrites its own file.
    expect([...delivered.keys()].sort()).toEqual([...numbers].sort());
    expect([...delivered.values()].every((n) => n === 1)).toBe(true);
    // No mail recorded as delivered twice (a repeat of the one cut off by the kill is allowed:
    // it was never recorded, so it shows once here too).
    expect([...deliveries.values()].every((n) => n === 1), JSON.stringify([...deliveries])).toBe(true);
  }, 240_000);
});
