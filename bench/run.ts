/**
 * npm run bench: on loopback, bounded in time.
 * - api: load on the hot API paths, with the product list against a bare node:http server sending
 *   the same bytes (BENCH_SECONDS x BENCH_ROUNDS per target);
 * - cart: cart updates and GET /api/cart of signed-in shoppers at 1, 10 and 50 connections;
 * - rush: registered shoppers with carts place orders for a limited pre-order at once;
 * - html: GET / and GET /shop as a visitor's browser asks for them, against the product list API
 *   on the same server (requests/s);
 * - orders: order placement with 20 concurrent shoppers (orders/s, p99);
 * - bundle: the JavaScript a first visit to / downloads, gzipped;
 * - lighthouse: mobile Lighthouse scores, LCP, CLS and TBT of /, /shop, a product page and /about
 *   (BENCH_LIGHTHOUSE_RUNS each), with the machine's CPU benchmark index;
 * - paint: when the first product name shows on /shop (and /) in a cold headless Chromium with a
 *   phone's screen (BENCH_PAINT_RUNS visits), against a baseline shop measured in the same run, or
 *   else bench/baseline.json;
 * - runtime: cold start and resident memory of the compiled server;
 * - cache: a visitor's /shop and product page through Varnish (deploy/varnish/) against the shop
 *   process alone, at 50 connections (bench/behind-varnish.ts);
 * - season: a run of BENCH_SEASON_SUBSCRIPTIONS (500) season boxes: its seconds, and the p99 of the
 *   product list and delivery dates before and while it runs (bench/season-box.ts).
 * The database reports (api, cart, rush, orders, runtime) run on the embedded database, and on
 * PostgreSQL as well when DATABASE_URL is set. `--baseline REV` (BENCH_BASELINE) measures the shop
 * at REV beside this checkout in the same run for api, cart, rush, bundle, lighthouse and paint
 * (bench/compare.ts). BENCH_ONLY=api,bundle picks some of the reports. All but orders run the
 * compiled server as npm start does.
 */
import { benchApi, printApi } from './api';
import { benchCache, printCache } from './behind-varnish';
import { benchCart, printCart } from './cart';
import { baselineRef, thisCommit } from './compare';
import { benchHtml, printHtml } from './html';
import { benchOrders, printOrders } from './orders';
import { benchPaint } from './paint';
import { printPaint } from './paint-report';
import { benchRush, printRush } from './rush';
import { benchRuntime, printRuntime } from './runtime';
import { benchSeasonBox, printSeasonBox } from './season-box';
import { benchWeb } from './web';

const reports = ['api', 'cart', 'rush', 'html', 'orders', 'bundle', 'lighthouse', 'paint', 'runtime', 'season', 'cache'] as const;
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
if (selected.has('bundle') || selected.has('lighthouse')) await benchWeb({ bundle: selected.has('bundle'), lighthouse: selected.has('lighthouse') });
if (selected.has('paint')) printPaint(await benchPaint());
if (selected.has('runtime')) printRuntime(await benchRuntime());
if (selected.has('season')) printSeasonBox(await benchSeasonBox());
if (selected.has('cache')) printCache(await benchCache());
// A Lighthouse run abandoned at its time limit can leave a socket open; it must not keep the bench alive.
process.exit(0);
