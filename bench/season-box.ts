/**
 * A season box run: BENCH_SEASON_SUBSCRIPTIONS (500) shoppers each subscribe to a weekly box of an
 * in-stock variety, then staff start the delivery date's run. Reports how long the run takes to
 * make every order, and the p99 of the answers shoppers wait for (the product list and the delivery
 * dates checkout offers) at 50 connections: before the run and while it runs. Beside a baseline
 * (--baseline REV) its shop answers the same two paths with no season boxes, so the cost of keeping
 * their places out of the delivery dates shows too. On PostgreSQL as well when DATABASE_URL is set.
 */
import { addDays, nzToday } from '../src/contracts/dates';
import { defaultDeliverySettings } from '../src/contracts/delivery';
import { whyNot } from '../src/server/modules/delivery/calendar';
import { baselineRef, contenders, databases, type DatabaseKind, startContender, thisCheckout, times } from './compare';
import { load, type LoadResult } from './http';
import { benchAdmin, benchLimits, benchShipping, inParallel, jsonHeaders, registerShoppers, signInAdmin } from './shoppers';
import { printTable } from './table';

const subscriptionCount = Number(process.env.BENCH_SEASON_SUBSCRIPTIONS ?? 500);
const connections = 50;
const loadSeconds = Number(process.env.BENCH_SECONDS ?? 5);
/** A p99 while the run goes may be this much above the one before it and still count as usual. */
const usualP99Slack = 1.5;

export interface SeasonRow {
  database: DatabaseKind;
  contender: string;
  /** Seconds from starting the run to its answer; null for a shop without season boxes. */
  runSeconds: number | null;
  ordered: number | null;
  idle: { products: LoadResult; dates: LoadResult };
  during: { products: LoadResult; dates: LoadResult } | null;
}

/** A delivery day for Auckland two weeks or so ahead: open, no holiday. */
function comingDeliveryDay(): string {
  for (let date = addDays(nzToday(new Date()), 14); ; date = addDays(date, 1)) {
    if (whyNot({ settings: defaultDeliverySettings, region: 'Auckland', booked: new Map(), boxes: 0 }, date, addDays(date, -1)) === null) return date;
  }
}

export async function benchSeasonBox(): Promise<SeasonRow[]> {
  const rows: SeasonRow[] = [];
  for (const database of databases()) {
    for (const contender of contenders()) {
      const withBoxes = contender.label === thisCheckout;
      process.stdout.write(`  season boxes: ${contender.label} on ${database}: ${withBoxes ? `${subscriptionCount} subscriptions, then their run` : 'no season boxes'}\n`);
      const shop = await startContender(contender, database, { ...benchLimits, ...benchAdmin });
      try {
        const datesUrl = `${shop.url}/api/delivery/dates?region=Auckland&boxes=1`;
        const productsUrl = `${shop.url}/api/products`;
        const measure = async () => ({ products: await load('products', productsUrl, loadSeconds, connections), dates: await load('dates', datesUrl, loadSeconds, connections) });
        if (!withBoxes) {
          rows.push({ database, contender: contender.label, runSeconds: null, ordered: null, idle: await measure(), during: null });
          continue;
        }
        const admin = await signInAdmin(shop.url);
        const list = (await (await fetch(productsUrl)).json()) as Array<{ id: number; isPreOrder: boolean }>;
        const variety = list.find((product) => !product.isPreOrder)!;
        const made = await fetch(`${shop.url}/api/products/${variety.id}`, { method: 'PUT', headers: jsonHeaders(admin), body: JSON.stringify({ subscribable: true, subscriberDiscountPercent: 10, stock: subscriptionCount * 3 }) });
        if (!made.ok) throw new Error(`making the variety a season box failed: ${made.status} ${await made.text()}`);
        // The day's capacity must take every box.
        const deliverySettings = await (await fetch(`${shop.url}/api/admin/delivery`, { headers: jsonHeaders(admin) })).json();
        await fetch(`${shop.url}/api/admin/delivery`, { method: 'PUT', headers: jsonHeaders(admin), body: JSON.stringify({ ...(deliverySettings as object), boxesPerDay: subscriptionCount * 2 }) });
        const date = comingDeliveryDay();
        const shoppers = await registerShoppers(shop.url, subscriptionCount, 'season');
        await inParallel(shoppers, 8, async (shopper) => {
          const response = await fetch(`${shop.url}/api/subscriptions`, {
            method: 'POST',
            headers: jsonHeaders(shopper.cookie),
            body: JSON.stringify({ productId: variety.id, quantity: 1, every: 'week', firstDeliveryDate: date, shipping: benchShipping, paymentMethod: 'bank_transfer' }),
          });
          if (response.status !== 201) throw new Error(`subscribing failed: ${response.status} ${await response.text()}`);
          await response.arrayBuffer();
        });
        const idle = await measure();
        const started = performance.now();
        const run = fetch(`${shop.url}/api/admin/subscription-runs`, { method: 'POST', headers: jsonHeaders(admin), body: JSON.stringify({ deliveryDate: date }) }).then(async (response) => {
          const seconds = (performance.now() - started) / 1000;
          if (!response.ok) throw new Error(`the run failed: ${response.status} ${await response.text()}`);
          return { seconds, ordered: ((await response.json()) as { ordered: number }).ordered };
        });
        const during = { products: await load('products', productsUrl, loadSeconds, connections), dates: await load('dates', datesUrl, loadSeconds, connections) };
        const finished = await run;
        rows.push({ database, contender: contender.label, runSeconds: finished.seconds, ordered: finished.ordered, idle, during });
      } finally {
        await shop.stop();
      }
    }
  }
  return rows;
}

export function printSeasonBox(rows: SeasonRow[]): void {
  console.log(`\nA season box run: ${subscriptionCount} weekly subscriptions made into orders, and the shop's answers at ${connections} connections before and while it runs (${loadSeconds} s each)\n`);
  const baseLabel = baselineRef() ? contenders()[1]!.label : undefined;
  printTable(
    ['database', 'shop', 'run s', 'orders', 'products p99 idle', 'products p99 in run', 'dates p99 idle', 'dates p99 in run', 'dates req/s idle', ...(baseLabel ? ['dates p99 idle vs base', 'products p99 idle vs base'] : [])],
    rows.map((row) => {
      const base = baseLabel && row.contender !== baseLabel ? rows.find((other) => other.contender === baseLabel && other.database === row.database) : undefined;
      return [
        row.database,
        row.contender,
        row.runSeconds === null ? '-' : row.runSeconds.toFixed(1),
        row.ordered === null ? '-' : String(row.ordered),
        String(row.idle.products.p99),
        row.during ? String(row.during.products.p99) : '-',
        String(row.idle.dates.p99),
        row.during ? String(row.during.dates.p99) : '-',
        row.idle.dates.requestsPerSecond.toFixed(0),
        ...(baseLabel ? [times(row.idle.dates.p99, base?.idle.dates.p99), times(row.idle.products.p99, base?.idle.products.p99)] : []),
      ];
    }),
  );
  for (const row of rows.filter((one) => one.contender === thisCheckout && one.during)) {
    const usual = (idle: LoadResult, during: LoadResult) => during.p99 <= Math.max(idle.p99 * usualP99Slack, idle.p99 + 5);
    const kept = usual(row.idle.products, row.during!.products) && usual(row.idle.dates, row.during!.dates);
    const exact = row.ordered === subscriptionCount;
    console.log(
      `${row.database}: ${exact ? `all ${subscriptionCount} orders made` : `ORDERS WRONG (${row.ordered})`} in ${row.runSeconds!.toFixed(1)} s; answers while it ran ${kept ? 'within' : 'NOT within'} ${usualP99Slack}x their p99 before it.`,
    );
  }
}
