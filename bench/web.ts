/**
 * The first view's reports that take a baseline: the JavaScript of a first visit (bundle.ts) and
 * Lighthouse (lighthouse.ts), on this checkout's shop and the baseline's, measured the same way.
 */
import { benchBundle, printBundle, type ScriptFile } from './bundle';
import { contenders, thisCheckout, times } from './compare';
import { benchLighthouse, type PageScores, printLighthouse } from './lighthouse';
import { startShop } from './shop-server';
import { kilobytes, printTable } from './table';

interface WebMeasures {
  label: string;
  files?: ScriptFile[];
  pages?: PageScores[];
}

/**
 * Every contender's shop runs for the whole report: the bundle is measured on each in turn, and
 * Lighthouse's runs take turns between them (lighthouse.ts), so the machine's changing load is
 * shared rather than landing on whichever shop went second.
 */
export async function benchWeb(reports: { bundle: boolean; lighthouse: boolean }): Promise<void> {
  const running: Array<{ label: string; tree: string | undefined; shop: Awaited<ReturnType<typeof startShop>> }> = [];
  try {
    for (const contender of contenders()) running.push({ label: contender.label, tree: contender.tree, shop: await startShop({ tree: contender.tree, node: contender.node }) });
    const measured: WebMeasures[] = [];
    for (const { label, shop } of running) measured.push({ label, files: reports.bundle ? await benchBundle(shop.url) : undefined });
    if (reports.lighthouse) {
      const pages = await benchLighthouse(running.map(({ label, tree, shop }) => ({ url: shop.url, label, reportPrefix: tree === undefined ? 'lighthouse' : 'lighthouse-baseline' })));
      pages.forEach((its, index) => (measured[index]!.pages = its));
    }
    const mine = running.findIndex(({ tree }) => tree === undefined);
    if (measured[mine]?.files) printBundle(measured[mine].files);
    if (measured[mine]?.pages) printLighthouse(measured[mine].pages);
    if (running.some(({ shop }) => shop.rebuiltSinceStart())) {
      console.log('\nThe web app was rebuilt while these reports ran (dist/web changed): pages may have failed to load. Run them again.');
    }
    if (measured.length > 1) printAgainstBaseline(measured[0]!, measured[1]!);
  } finally {
    const stopped = await Promise.allSettled(running.map(({ shop }) => shop.stop()));
    for (const result of stopped) if (result.status === 'rejected') console.error(`a shop did not stop cleanly: ${String(result.reason)}`);
  }
}

/** The JavaScript of a first visit and Lighthouse's medians, this checkout beside the baseline. */
function printAgainstBaseline(current: WebMeasures, base: WebMeasures): void {
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
    const tbt = (one: PageScores) => one.measures['total-blocking-time'];
    const ms = (value: number | null) => (value === null ? 'n/a' : String(Math.round(value)));
    const tbtNow = tbt(page);
    rows.push([`${name} TBT ms`, ms(tbtNow), ms(tbt(other)), tbtNow === null ? '' : times(tbtNow, tbt(other) ?? undefined)]);
    rows.push([`${name} best practices`, String(page.scores['best-practices'] ?? 'n/a'), String(other.scores['best-practices'] ?? 'n/a'), '']);
  }
  printTable(['measure', thisCheckout, base.label, 'this / base'], rows);
}
