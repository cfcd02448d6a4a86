import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/client';
import { expectWholeShop } from './consistency';
import { attempt, buildServer, type Outcome, products, type ShopProcess, shoppers, sleep, startShop, statusCounts, stopShop } from './harness';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-sigterm-'));
let shop: ShopProcess | undefined;

afterAll(async () => {
  if (shop) await stopShop(shop, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('SIGTERM under load', () => {
  it('answers every request it accepted before the signal, then exits with code 0', async () => {
    await buildServer();
    shop = await startShop({ DATA_DIR: dataDir });
    const box = (await products(shop.url)).filter((p) => !p.isPreOrder).sort((a, b) => b.stock - a.stock)[0]!;
    const buyers = await shoppers(shop.url, 12, 'stopping');
    for (const buyer of buyers) expect(await buyer.addToCart(box.id, 1)).toMatchObject({ status: 200 });

    // Every request is on its own connection; the signal comes once all of them are sent, while the
    // shop is still placing the orders (on the embedded database it places one at a time).
    let sent = 0;
    const onSent = () => (sent += 1);
    const requests: Array<Promise<Outcome>> = [
      ...buyers.map((buyer) => buyer.placeOrder({ onSent })),
      ...Array.from({ length: 36 }, (_, i) => attempt(`${shop!.url}/api/products${i % 2 ? '' : `/${box.id}`}`, { onSent })),
    ];
    const deadline = Date.now() + 20_000;
    while (sent < requests.length && Date.now() < deadline) await sleep(1);
    expect(sent).toBe(requests.length);
    shop.child.kill('SIGTERM');
    const signalledAt = Date.now();
    const answeredAfterSignal = requests.map((request) => request.then(() => Date.now() > signalledAt));
    const outcomes = await Promise.all(requests);
    const exit = await shop.exited;
    const output = shop.output();
    shop = undefined;

    expect(statusCounts(outcomes), output.slice(-3000)).toEqual({ '201': 12, '200': 36 });
    expect(exit, output.slice(-3000)).toEqual({ code: 0, signal: null });
    // The shop was busy when the signal came: requests were still waiting for their answers.
    expect((await Promise.all(answeredAfterSignal)).filter(Boolean).length).toBeGreaterThan(0);

    const placed = outcomes.flatMap((o) => ('status' in o && o.status === 201 ? [(o.body.order as { number: string }).number] : []));
    const state = await expectWholeShop(await openPglite(path.join(dataDir, 'pglite')), placed);
    expect(state.orders).toHaveLength(12);
  }, 240_000);

  it('exits with code 1 once SHUTDOWN_TIMEOUT_SECONDS has passed, when a request is still not finished', async () => {
    await buildServer();
    const slowDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-deadline-'));
    try {
      shop = await startShop({ DATA_DIR: slowDir, SHUTDOWN_TIMEOUT_SECONDS: '1' });
      // A client that sends the start of a request body and then nothing: the request stays in flight.
      const socket = net.connect(shop.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write('POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":');
      await sleep(300);
      const signalledAt = Date.now();
      shop.child.kill('SIGTERM');
      const exit = await shop.exited;
      const tookMs = Date.now() - signalledAt;
      socket.destroy();
      expect(exit.code, shop.output().slice(-2000)).toBe(1);
      expect(shop.output()).toContain('could not stop in time');
      expect(tookMs).toBeGreaterThanOrEqual(1_000);
      expect(tookMs).toBeLessThan(10_000);
      shop = undefined;
    } finally {
      fs.rmSync(slowDir, { recursive: true, force: true });
    }
  }, 120_000);
});
