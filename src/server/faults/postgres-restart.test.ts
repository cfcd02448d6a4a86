import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../db/client';
import { expectWholeShop } from './consistency';
import { attempt, buildServer, type Outcome, products, type ShopProcess, shoppers, sleep, startShop, statusCounts, stopShop } from './harness';
import { PostgresCluster } from './postgres-cluster';

const bin = PostgresCluster.binaries();
// CI installs PostgreSQL, so there the test must run; elsewhere it needs Debian's postgresql package.
const runnable = Boolean(bin) || process.env.CI === 'true';
let cluster: PostgresCluster | undefined;
// Mail goes to files in it (no SMTP_URL); the database is PostgreSQL.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-pg-restart-'));
let shop: ShopProcess | undefined;

afterAll(async () => {
  if (shop) await stopShop(shop, 'SIGKILL');
  await cluster?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** How long a request may take during the outage: an answer, not a hang. */
const answerWithinMs = 10_000;

describe.skipIf(!runnable || Boolean(process.env.DATABASE_URL))('PostgreSQL restarted while shoppers browse and order', () => {
  it('answers 503 with a message during the outage, never hangs or crashes, recovers by itself, and keeps every placed order and the stock whole', async () => {
    expect(bin, 'PostgreSQL is not installed (Debian package postgresql)').toBeDefined();
    await buildServer();
    cluster = await PostgresCluster.create(bin!);
    shop = await startShop({ DATABASE_URL: cluster.url, DATA_DIR: dataDir });
    const box = (await products(shop.url)).filter((p) => !p.isPreOrder).sort((a, b) => b.stock - a.stock)[0]!;
    const buyers = await shoppers(shop.url, 4, 'restart');

    const outcomes: Array<{ phase: string; outcome: Outcome; what: string }> = [];
    let phase = 'before';
    let stopLoad = false;
    const record = (what: string, outcome: Outcome) => outcomes.push({ phase, outcome, what });
    const ordering = buyers.map(async (buyer) => {
      while (!stopLoad) {
        const added = await buyer.addToCart(box.id, 1);
        record('cart', added);
        if ('status' in added && added.status === 200) record('order', await buyer.placeOrder({ timeoutMs: answerWithinMs * 2 }));
        // A shopper takes a moment between orders (and the box's stock lasts the whole test).
        await sleep(700);
      }
    });
    const browsing = Array.from({ length: 3 }, async (_, i) => {
      while (!stopLoad) {
        record('browse', await attempt(`${shop!.url}${['/api/products', `/api/products/${box.id}`, '/readyz'][i]}`, { timeoutMs: answerWithinMs * 2 }));
        await sleep(20);
      }
    });

    await sleep(1_500);
    phase = 'outage';
    await cluster.stop();
    await sleep(3_000);
    phase = 'restarting';
    await cluster.start();
    phase = 'after';
    await sleep(3_000);
    stopLoad = true;
    await Promise.all([...ordering, ...browsing]);

    const byPhase = (name: string) => statusCounts(outcomes.filter((o) => o.phase === name).map((o) => o.outcome));
    const summary = JSON.stringify({ before: byPhase('before'), outage: byPhase('outage'), after: byPhase('after') });
    // Every request was answered (no reset, no crash) and in time.
    expect(outcomes.filter(({ outcome }) => !('status' in outcome)), summary).toEqual([]);
    expect(Math.max(...outcomes.map(({ outcome }) => outcome.ms)), summary).toBeLessThan(answerWithinMs);
    // Answers are successes or a clean 503 with a message; never a 500.
    const statuses = new Set(outcomes.flatMap(({ outcome }) => ('status' in outcome ? [outcome.status] : [])));
    expect([...statuses].filter((s) => ![200, 201, 503].includes(s)), summary).toEqual([]);
    const unavailable = outcomes.flatMap(({ outcome }) => ('status' in outcome && outcome.status === 503 ? [outcome.body] : []));
    expect(unavailable.length, summary).toBeGreaterThan(0);
    for (const body of unavailable) expect(body.message).toMatch(/database/);
    // Back without a restart of the shop: the last second of load went through.
    const lastAnswers = outcomes.slice(-9).map(({ outcome }) => ('status' in outcome ? outcome.status : 0));
    expect(lastAnswers.every((s) => s === 200 || s === 201), summary).toBe(true);
    expect(shop.child.exitCode, shop.output().slice(-3000)).toBeNull();
    const [buyer] = buyers;
    expect(await buyer!.addToCart(box.id, 1)).toMatchObject({ status: 200 });
    expect(await buyer!.placeOrder()).toMatchObject({ status: 201 });

    const placed = outcomes.flatMap(({ what, outcome }) => (what === 'order' && 'status' in outcome && outcome.status === 201 ? [(outcome.body.order as { number: string }).number] : []));
    expect(placed.length, summary).toBeGreaterThan(0);
    expect((await stopShop(shop)).code).toBe(0);
    shop = undefined;

    await expectWholeShop(await openPostgres(cluster.url), placed);
  }, 240_000);
});
