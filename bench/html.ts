/**
 * The pages a visitor's browser asks for, GET / and GET /shop (no session, Accept: text/html),
 * against the product list API on the same compiled server, in interleaved rounds (BENCH_SECONDS
 * x BENCH_ROUNDS, BENCH_CONNECTIONS). The server logs every request, as in production. It
 * measures whatever the server answers: rendered pages (from the page cache, as visitors get
 * them), or the index.html of a client-rendered shop.
 */
import { interleavedRounds, load, type LoadResult, summarise } from './http';
import { startShop } from './shop-server';
import { kilobytes, printTable } from './table';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const goalShare = 0.5;

/** What Chromium sends for a page and for a fetch() of JSON. */
const pageHeaders = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br, zstd' };
const apiHeaders = { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br, zstd' };

export interface HtmlTarget extends LoadResult {
  /** One answer, looked at before the load: status, type, bytes sent. */
  status: number;
  contentType: string;
  bytes: number;
}

export async function benchHtml(): Promise<HtmlTarget[]> {
  const shop = await startShop({ env: { LOG_LEVEL: 'info' } });
  try {
    const targets: Array<[string, string, Record<string, string>]> = [
      ['GET /api/products', '/api/products', apiHeaders],
      ['GET / (visitor)', '/', pageHeaders],
      ['GET /shop (visitor)', '/shop', pageHeaders],
    ];
    const answers = await Promise.all(targets.map(([, pathname, headers]) => answer(`${shop.url}${pathname}`, headers)));
    const run = ([name, pathname, headers]: (typeof targets)[number], duration: number) => load(name, `${shop.url}${pathname}`, duration, connections, { headers });
    const byTarget = await interleavedRounds(targets, rounds, seconds, run);
    return byTarget.map((results, index) => ({ ...summarise(results), ...answers[index]! }));
  } finally {
    await shop.stop();
  }
}

async function answer(url: string, headers: Record<string, string>): Promise<Pick<HtmlTarget, 'status' | 'contentType' | 'bytes'>> {
  const response = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' } });
  const body = await response.arrayBuffer();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', bytes: body.byteLength };
}

export function printHtml(targets: HtmlTarget[]): void {
  const [api, ...pages] = targets as [HtmlTarget, ...HtmlTarget[]];
  console.log(`\nPages for visitors against the product list API, compiled server (medians of ${rounds} interleaved rounds of ${seconds} s, ${connections} connections; ratio = req/s against GET /api/products)\n`);
  printTable(
    ['target', 'answer', 'body kB', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'errors/non-2xx'],
    targets.map((t) => [
      t.name,
      `${t.status} ${t.contentType.split(';')[0]}`,
      kilobytes(t.bytes),
      t.requestsPerSecond.toFixed(0),
      String(t.p50),
      String(t.p99),
      `${Math.round((t.requestsPerSecond / api.requestsPerSecond) * 100)}%`,
      `${t.errors}/${t.non2xx}`,
    ]),
  );
  const shares = pages.map((page) => page.requestsPerSecond / api.requestsPerSecond);
  const failed = targets.some((t) => t.errors || t.non2xx);
  const met = !failed && shares.every((share) => share >= goalShare);
  console.log(
    `\nHTML / and /shop at ${shares.map((share) => `${(share * 100).toFixed(0)}%`).join(' and ')} of the product list API (goal: at least ${goalShare * 100}%): ${met ? 'met' : 'NOT met'}${failed ? ' (some requests failed)' : ''}.`,
  );
  const notHtml = pages.filter((page) => page.status !== 200 || !page.contentType.startsWith('text/html'));
  for (const page of notHtml) console.log(`${page.name} answered ${page.status} ${page.contentType}, not a page.`);
}
