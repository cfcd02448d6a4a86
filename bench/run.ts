/**
 * npm run bench: on loopback, bounded in time.
 * - api: load on the hot API paths (BENCH_SECONDS x BENCH_ROUNDS per target; set DATABASE_URL to
 *   run it on PostgreSQL instead of the embedded database);
 * - html: GET / and GET /shop as a visitor's browser asks for them, against the product list API
 *   on the same server (requests/s);
 * - orders: order placement with 20 concurrent shoppers (orders/s, p99) on the embedded database,
 *   and on PostgreSQL as well when DATABASE_URL is set;
 * - bundle: the JavaScript a first visit to / downloads, gzipped;
 * - lighthouse: mobile Lighthouse scores, LCP, CLS and TBT of /, /shop, a product page and /about
 *   (BENCH_LIGHTHOUSE_RUNS each), with the machine's CPU benchmark index;
 * - paint: when the first product name shows on /shop (and /) in a cold headless Chromium with a
 *   phone's screen (BENCH_PAINT_RUNS visits), against a baseline: the shop at
 *   BENCH_PAINT_BASELINE=<git ref> measured in the same run, or else bench/baseline.json;
 * - runtime: cold start and resident memory of the compiled server, on the embedded database and
 *   on PostgreSQL when DATABASE_URL is set.
 * BENCH_ONLY=api,bundle picks some of them. All but api and orders run the built app on the real server.
 */
import { benchApi, printApi } from './api';
import { benchBundle, printBundle, type ScriptFile } from './bundle';
import { benchCart, printCart } from './cart';
import { baselineRef, contenders, thisCommit, times } from './compare';
import { benchHtml, printHtml } from './html';
import { benchLighthouse, type PageScores, printLighthouse } from './lighthouse';
import { benchOrders, printOrders } from './orders';
import { benchPaint } from './paint';
import { printPaint } from './paint-report';
import { benchRush, printRush } from './rush';
import { benchRuntime, printRuntime } from './runtime';
import { startShop } from './shop-server';
import { kilobytes, printTable } from './table';

const reports = ['api', 'cart', 'rush', 'html', 'orders', 'bundle', 'lighthouse', 'paint', 'runtime'] as const;
type Report = (typeof reports)[number];

// npm run bench -- --baseline REV: api, cart, rush, bundle, lighthouse and paint measure the shop
// at REV beside this checkout in the same run.
const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
if (baselineAt >= 0) {
  const ref = args[baselineAt + 1];
  if (!ref || ref.startsWith('--')) {
    console.error('--baseline takes a git ref, e.g. npm run bench -- --baseline main');
    process.exit(1);
  }
  process.env.BENCH_BASELINE = ref;
  process.env.BENCH_PAINT_BASELINE ??= ref;
} else if (args.length) {
  console.error(`unknown argument ${args[0]} (npm run bench -- --baseline REV)`);
  process.exit(1);
}
if (baselineRef()) console.log(`Measuring ${thisCommit()} beside ${baselineRef()}, in the same run.`);

const picked = (process.env.BENCH_ONLY ?? '').split(',').map((name) => name.trim()).filter(Boolean);
const unknown = picked.filter((name) => !reports.includes(name as Report));
if (unknown.length) {
  console.error(`BENCH_ONLY: unknown report ${unknown.join(', ')} (use a comma-separated list of ${reports.join(', ')})`);
  process.exit(1);
}
const selected = new Set<Report>(picked.length ? (picked as Report[]) : reports);

// On exit, bench/reaper.ts ends the servers and browsers still running.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

if (selected.has('api')) printApi(await benchApi());
if (selected.has('cart')) printCart(await benchCart());
if (selected.has('rush')) printRush(await benchRush());
if (selected.has('html')) printHtml(await benchHtml());
if (selected.has('orders')) printOrders(await benchOrders());
if (selected.has('bundle') || selected.has('lighthouse')) {
  // This checkout, then the baseline's shop (--baseline) measured the same way.
  const measured: Array<{ label: string; files?: ScriptFile[]; pages?: PageScores[] }> = [];
  for (const contender of contenders()) {
    const shop = await startShop({ tree: contender.tree });
    try {
      const files = selected.has('bundle') ? await benchBundle(shop.url) : undefined;
      const pages = selected.has('lighthouse') ? await benchLighthouse(shop.url) : undefined;
      measured.push({ label: contender.label, files, pages });
      if (contender.tree === undefined) {
        if (files) printBundle(files);
        if (pages) printLighthouse(pages);
      }
      if (shop.rebuiltSinceStart()) {
        console.log('\nThe web app was rebuilt while these reports ran (dist/web changed): pages may have failed to load. Run them again.');
      }
    } finally {
      await shop.stop();
    }
  }
  if (measured.length > 1) printWebAgainstBaseline(measured[0]!, measured[1]!);
}
if (selected.has('paint')) printPaint(await benchPaint());
if (selected.has('runtime')) printRuntime(await benchRuntime());
// A Lighthouse run abandoned at its time limit can leave a socket open; it must not keep the bench alive.
process.exit(0);

/** The JavaScript of a first visit and Lighthouse's medians, this checkout beside the baseline. */
function printWebAgainstBaseline(current: { label: string; files?: ScriptFile[]; pages?: PageScores[] }, base: { label: string; files?: ScriptFile[]; pages?: PageScores[] }): void {
  console.log(`\nThis checkout beside ${base.label}, in the same run\n`);
  const rows: string[][] = [];
  if (current.files && base.files) {
    const gzip = (files: ScriptFile[]) => files.reduce((sum, file) => sum + file.gzipBytes, 0);
    rows.push(['JavaScript on / (gzip-9 kB, files)', `${kilobytes(gzip(current.files))}, ${current.files.length}`, `${kilobytes(gzip(base.files))}, ${base.files.length}`, times(gzip(current.files), gzip(base.files))]);
  }
  for (const page of current.pages ?? []) {
    const other = base.pages?.find((one) => new URL(one.url).pathname === new URL(page.url).pathname);
    if (!other) continue;
    const name = new URL(page.url).pathname;
    rows.push([`${name} performance`, String(page.scores.performance ?? 'n/a'), String(other.scores.performance ?? 'n/a'), '']);
    const lcp = (one: PageScores) => one.measures['largest-contentful-paint'];
    rows.push([`${name} LCP ms`, String(Math.round(lcp(page) ?? 0)), String(Math.round(lcp(other) ?? 0)), times(lcp(page) ?? 0, lcp(other) ?? undefined)]);
  }
  printTable(['measure', 'this checkout', base.label, 'this / base'], rows);
}
