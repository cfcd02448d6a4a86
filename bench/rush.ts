/**
 * The season-opening rush: BENCH_RUSH_SHOPPERS registered shoppers (240) each have a box of a
 * pre-order variety in their cart, and place their orders BENCH_RUSH_AT_ONCE (40) at a time for a
 * pre-order limit of BENCH_RUSH_BOXES (100) boxes, on a fresh compiled shop with its request log
 * on. Reports placements answered per second and their latency, and checks what a shopper and the
 * shop owner would: exactly as many orders as boxes, every other shopper told it is sold out (a
 * 4xx, never a 5xx), and each order's confirmation in the outbox exactly once. With a baseline
 * (--baseline REV) its shop goes through the same rush; on PostgreSQL too when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { rushRetryPauseMs } from '../src/contracts/checkout';
import fs from 'node:fs';
import path from 'node:path';
import { baselineRef, contenders, databases, type DatabaseKind, startContender, thisCheckout, times } from './compare';
import { median, percentile } from './http';
import { benchAdmin, benchLimits, benchShipping as shipping, inParallel, jsonHeaders, registerShoppers, signInAdmin } from './shoppers';
import { printTable } from './table';

const shopperCount = Number(process.env.BENCH_RUSH_SHOPPERS ?? 240);
const atOnce = Number(process.env.BENCH_RUSH_AT_ONCE ?? 40);
const boxes = Number(process.env.BENCH_RUSH_BOXES ?? 100);
/** Beside a baseline the medians of three runs each: one run apiece cannot tell a change from the machine's noise. */
const runsPerShop = () => Number(process.env.BENCH_RUSH_RUNS ?? (baselineRef() ? 3 : 1));
export const rushGoals = { pglite: { perSecond: 120, p99Ms: 600 }, postgres: { perSecond: 250, p99Ms: 300 } } as const;
/** However many order at once (the crowd's check runs BENCH_RUSH_AT_ONCE=200), no one answer may take longer. */
const slowestAnswerGoalMs = 2000;


export interface RushRow {
  database: DatabaseKind;
  contender: string;
  /** Placements answered per second, from the first request to the last answer. */
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  placed: number;
  soldOut: number;
  /** Answers that were neither: 5xx, other 4xx, network errors. */
  other: number;
  /** 429s (more placements than the shop takes at once), each tried again with the same order key. */
  busy: number;
  /** The longest any one answer took (a 429 included), as against `max`, a shopper's whole wait. */
  slowestAnswer: number;
  /** Orders whose confirmation is in the outbox exactly once. */
  mailedOnce: number;
}

type RushRun = Omit<RushRow, 'database' | 'contender'>;

export async function benchRush(): Promise<RushRow[]> {
  const rows: RushRow[] = [];
  const runs = runsPerShop();
  for (const database of databases()) {
    // Runs take turns between the shops (this one first, then the baseline, then the other way
    // round), so a machine that gets busier during the report slows both alike.
    const measured = new Map<string, RushRun[]>(contenders().map((contender) => [contender.label, []]));
    for (let run = 0; run < runs; run += 1) {
      const order = run % 2 === 0 ? contenders() : [...contenders()].reverse();
      for (const contender of order) {
        process.stdout.write(`  rush: ${contender.label} on ${database}, run ${run + 1}/${runs}: ${shopperCount} shoppers, ${atOnce} at once, ${boxes} boxes\n`);
        measured.get(contender.label)!.push(await rushOnce(contender, database));
      }
    }
    for (const contender of contenders()) {
      const its = measured.get(contender.label)!;
      const pick = (key: keyof RushRun) => median(its.map((one) => one[key]));
      rows.push({
        database,
        contender: contender.label,
        perSecond: pick('perSecond'),
        p50: pick('p50'),
        p99: pick('p99'),
        max: Math.max(...its.map((one) => one.max)),
        placed: its.reduce((sum, one) => sum + one.placed, 0),
        soldOut: its.reduce((sum, one) => sum + one.soldOut, 0),
        other: its.reduce((sum, one) => sum + one.other, 0),
        busy: its.reduce((sum, one) => sum + one.busy, 0),
        slowestAnswer: Math.max(...its.map((one) => one.slowestAnswer)),
        mailedOnce: its.reduce((sum, one) => sum + one.mailedOnce, 0),
      });
    }
  }
  return rows;
}

async function rushOnce(contender: ReturnType<typeof contenders>[number], database: DatabaseKind): Promise<RushRun> {
  const shop = await startContender(contender, database, { ...benchLimits, ...benchAdmin });
  try {
    const admin = await signInAdmin(shop.url);
    const list = (await (await fetch(`${shop.url}/api/products`)).json()) as Array<{ id: number; isPreOrder: boolean }>;
    const variety = list.find((product) => product.isPreOrder);
    if (!variety) throw new Error('the seeded catalogue has no pre-order variety');
    const limited = await fetch(`${shop.url}/api/products/${variety.id}`, { method: 'PUT', headers: jsonHeaders(admin), body: JSON.stringify({ preOrderLimit: boxes }) });
    if (!limited.ok) throw new Error(`setting the pre-order limit failed: ${limited.status} ${await limited.text()}`);
    const shoppers = await registerShoppers(shop.url, shopperCount, 'rush');
    await inParallel(shoppers, 8, async (shopper) => {
      const added = await fetch(`${shop.url}/api/cart/${shopper.id}/items`, { method: 'POST', headers: jsonHeaders(shopper.cookie), body: JSON.stringify({ productId: variety.id, quantity: 1 }) });
      await added.arrayBuffer();
      if (!added.ok) throw new Error(`a shopper could not cart the pre-order: ${added.status}`);
    });

    const latencies: number[] = [];
    const numbers: string[] = [];
    let soldOut = 0;
    let other = 0;
    let busy = 0;
    let slowestAnswer = 0;
    const started = performance.now();
    await inParallel(shoppers, atOnce, async (shopper) => {
      const before = performance.now();
      try {
        // As checkout does (postOrderThroughRush): a 429 (more placements than the shop takes at
        // once) is sent again with the same order key after a spread pause; the shopper's wait
        // counts from the first try.
        const idempotencyKey = randomUUID();
        let response: Response;
        for (let attempt = 1; ; attempt += 1) {
          const asked = performance.now();
          response = await fetch(`${shop.url}/api/orders`, { method: 'POST', headers: jsonHeaders(shopper.cookie), body: JSON.stringify({ shipping, idempotencyKey }) });
          slowestAnswer = Math.max(slowestAnswer, performance.now() - asked);
          if (response.status !== 429 || attempt > 50) break;
          busy += 1;
          await response.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, rushRetryPauseMs(attempt)));
        }
        const body = (await response.json()) as { number?: string; order?: { number?: string } };
        latencies.push(performance.now() - before);
        if (response.status === 201) numbers.push(body.number ?? body.order?.number ?? '');
        // A full pre-order answers 409; anything else (a 400 too) is not a sale refused and breaks the count.
        else if (response.status === 409) soldOut += 1;
        else other += 1;
      } catch {
        latencies.push(performance.now() - before);
        other += 1;
      }
    });
    const elapsed = (performance.now() - started) / 1000;
    const sorted = latencies.sort((a, b) => a - b);
    const mailedOnce = await confirmationsMailedOnce(shop.dataDir, numbers);
    return { perSecond: latencies.length / elapsed, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: Math.round(sorted.at(-1) ?? 0), placed: numbers.length, soldOut, other, busy, slowestAnswer: Math.round(slowestAnswer), mailedOnce };
  } finally {
    await shop.stop();
  }
}

/** How many of the orders have their confirmation in the outbox folder exactly once (waits up to 60 s for the outbox to send them). */
async function confirmationsMailedOnce(dataDir: string, numbers: string[]): Promise<number> {
  const folder = path.join(dataDir, 'outbox');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = new Map<string, number>();
    const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.eml')) : [];
    for (const file of files) {
      const subject = /^Subject: Your order (\S+) /m.exec(fs.readFileSync(path.join(folder, file), 'utf8'))?.[1];
      if (subject) seen.set(subject, (seen.get(subject) ?? 0) + 1);
    }
    const once = numbers.filter((number) => seen.get(number) === 1).length;
    const settled = numbers.every((number) => seen.has(number));
    if (settled || Date.now() > deadline) return once;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export function printRush(rows: RushRow[]): void {
  console.log(`\nThe season-opening rush: ${shopperCount} shoppers with a pre-order in their cart, ${atOnce} placing at once, ${boxes} boxes (${runsPerShop() > 1 ? `medians of ${runsPerShop()} runs` : 'one run'} each)\n`);
  const baseLabel = baselineRef() ? contenders()[1]!.label : undefined;
  printTable(
    ['database', 'shop', 'answers/s', 'p50 ms', 'p99 ms', 'max ms', 'placed', 'sold out', 'other', 'tried again (429)', 'slowest answer ms', 'mailed once', ...(baseLabel ? ['answers/s vs base', 'p99 vs base'] : [])],
    rows.map((row) => {
      const base = baseLabel && row.contender !== baseLabel ? rows.find((other) => other.contender === baseLabel && other.database === row.database) : undefined;
      return [
        row.database,
        row.contender,
        row.perSecond.toFixed(0),
        String(row.p50),
        String(row.p99),
        String(row.max),
        String(row.placed),
        String(row.soldOut),
        String(row.other),
        String(row.busy),
        String(row.slowestAnswer),
        String(row.mailedOnce),
        ...(baseLabel ? [times(row.perSecond, base?.perSecond), times(row.p99, base?.p99)] : []),
      ];
    }),
  );
  for (const row of rows.filter((one) => one.contender === thisCheckout)) {
    const goal = rushGoals[row.database];
    const exact = row.placed === boxes * runsPerShop() && row.soldOut === (shopperCount - boxes) * runsPerShop() && row.other === 0 && row.mailedOnce === row.placed;
    const fast = row.perSecond >= goal.perSecond && row.p99 <= goal.p99Ms;
    console.log(
      `${row.database}: ${exact ? 'exact counts, no 5xx, each order mailed once' : 'COUNTS WRONG'}; ${row.perSecond.toFixed(0)} answers/s, p99 ${row.p99} ms (goal: at least ${goal.perSecond}/s, p99 at most ${goal.p99Ms} ms): ${fast ? 'met' : 'NOT met'}.`,
    );
    console.log(
      `${row.database}: slowest single answer ${row.slowestAnswer} ms with ${atOnce} at once, ${row.busy} told to try again (goal: no answer over ${slowestAnswerGoalMs} ms): ${row.slowestAnswer <= slowestAnswerGoalMs ? 'met' : 'NOT met'}.`,
    );
  }
}
