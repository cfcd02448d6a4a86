/**
 * How soon a shopper sees the first product: cold visits to /shop (and to / for information) in
 * headless Chromium on the compiled server, timed by bench/first-product.ts. With --baseline REV
 * (or BENCH_PAINT_BASELINE=<git ref>) the shop at that ref is built in a temporary worktree and
 * visited too, run by run in turn with this checkout, so both share the machine's noise; without
 * it, the figure recorded in bench/baseline.json stands in. BENCH_PAINT_RECORD=1 writes this
 * checkout's figures to bench/baseline.json. Every visit is written to bench/.out/paint.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { type BaselineTree, checkOutBaseline, git } from './baseline-tree';
import { baselineRef, contenders, thisCheckout } from './compare';
import { chromiumPath } from './bundle';
import { timeFirstProduct, type VisitTiming } from './first-product';
import { median } from './http';
import { readRecordedBaseline, type RecordedBaseline, writeRecordedBaseline } from './recorded-baseline';
import { type RunningShop, startShop } from './shop-server';

const runs = Number(process.env.BENCH_PAINT_RUNS ?? 9);
const record = process.env.BENCH_PAINT_RECORD === '1';
export const paintGoals = { shopMs: 300, timesSooner: 3 };
const outFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '.out', 'paint.json');

/** The home page's products sit under its hero, below the first screen of a phone. */
export const paintPages = [
  { path: '/shop', inFirstScreen: true },
  { path: '/', inFirstScreen: false },
] as const;
export type PagePath = (typeof paintPages)[number]['path'];

export interface MeasuredCode {
  label: string;
  commit: string;
  /** The app's sources differ from the commit. */
  uncommitted: boolean;
  visits: Record<PagePath, VisitTiming[]>;
}

export interface PaintResult {
  runs: number;
  chromium: string;
  loadAverage: { before: number; after: number; cores: number };
  current: MeasuredCode;
  baseline?: MeasuredCode;
  recorded?: RecordedBaseline;
  /** A web app rebuilt under a running server: its pages may have broken mid-run. */
  rebuilt: boolean;
  /** What BENCH_PAINT_RECORD did. */
  recording?: string;
}

export async function benchPaint(): Promise<PaintResult> {
  const recorded = readRecordedBaseline();
  const shops: RunningShop[] = [];
  let checkout: PaintBaseline | undefined;
  try {
    // Checked out first: a ref that does not exist stops the report before anything is built.
    checkout = paintBaseline();
    process.stdout.write('  paint: this checkout, built if needed\n');
    const currentShop = await startShop();
    shops.push(currentShop);
    const targets = [{ code: measuredCode(thisCheckout, git(['rev-parse', 'HEAD']), appChanged()), url: currentShop.url }];
    if (checkout) {
      process.stdout.write(`  paint: baseline ${checkout.ref} (${checkout.commit.slice(0, 10)}), built in a temporary worktree\n`);
      const baselineShop = await startShop({ tree: checkout.tree, node: checkout.node });
      shops.push(baselineShop);
      targets.unshift({ code: measuredCode(`baseline ${checkout.ref}`, checkout.commit, false), url: baselineShop.url });
    }
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    // Read once the builds and starts are over: it tells whether other work shared the machine.
    const loadBefore = os.loadavg()[0]!;
    try {
      // The browser is cold on every visit; the servers need not be: one untimed visit each first.
      for (const target of targets) for (const page of paintPages) await timeFirstProduct(browser, `${target.url}${page.path}`, page.inFirstScreen);
      for (let run = 0; run < runs; run += 1) {
        const order = run % 2 ? [...targets].reverse() : targets;
        for (const page of paintPages) {
          for (const target of order) target.code.visits[page.path].push(await timeFirstProduct(browser, `${target.url}${page.path}`, page.inFirstScreen));
        }
        process.stdout.write(`  paint run ${run + 1}/${runs}: ${targets.map((t) => `${t.code.label} ${paintPages.map((p) => `${p.path} ${shown(t.code.visits[p.path].at(-1)?.firstProductMs)}`).join(', ')}`).join('; ')}\n`);
      }
      const result: PaintResult = {
        runs,
        chromium: browser.version(),
        loadAverage: { before: loadBefore, after: os.loadavg()[0]!, cores: os.cpus().length },
        current: targets.at(-1)!.code,
        baseline: checkout ? targets[0]!.code : undefined,
        recorded,
        rebuilt: shops.some((shop) => shop.rebuiltSinceStart()),
      };
      fs.mkdirSync(path.dirname(outFile), { recursive: true });
      fs.writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
      if (record) result.recording = recordCurrent(result);
      return result;
    } finally {
      await browser.close();
    }
  } finally {
    for (const shop of shops) await shop.stop();
    checkout?.remove();
  }
}

type PaintBaseline = Pick<BaselineTree, 'ref' | 'commit' | 'tree' | 'remove'> & { node?: string };

/**
 * The shop paint measures beside this checkout: --baseline's (BENCH_BASELINE), the very worktree
 * the other reports use, or a checkout of its own for a different BENCH_PAINT_BASELINE.
 */
function paintBaseline(): PaintBaseline | undefined {
  const own = process.env.BENCH_PAINT_BASELINE?.trim() || undefined;
  if (own && own !== baselineRef()) return checkOutBaseline(own);
  const shared = contenders()[1];
  if (!shared?.tree || !shared.commit) return undefined;
  // compare.ts removes its worktree when the bench exits.
  return { ref: baselineRef()!, commit: shared.commit, tree: shared.tree, node: shared.node, remove: () => undefined };
}

function measuredCode(label: string, commit: string, uncommitted: boolean): MeasuredCode {
  return { label, commit, uncommitted, visits: { '/shop': [], '/': [] } };
}

/** Whether what the build reads differs from HEAD (its inputs, as scripts/build.ts lists them). */
function appChanged(): boolean {
  return git(['status', '--porcelain', '--', 'src', 'public', 'scripts', 'vite.config.ts', 'tsconfig.json', 'package-lock.json']) !== '';
}

export function firstProductTimes(visits: VisitTiming[]): number[] {
  return visits.flatMap((visit) => (visit.firstProductMs === undefined ? [] : [visit.firstProductMs]));
}

function shown(ms: number | undefined): string {
  return ms === undefined ? 'failed' : `${ms.toFixed(0)} ms`;
}

/** Writes this checkout's figures to bench/baseline.json, and says what it did. */
function recordCurrent(result: PaintResult): string {
  const { current } = result;
  const failed = paintPages.filter((page) => firstProductTimes(current.visits[page.path]).length < runs);
  if (current.uncommitted) return 'BENCH_PAINT_RECORD: not recorded, the app has uncommitted changes.';
  if (failed.length) return `BENCH_PAINT_RECORD: not recorded, visits to ${failed.map((p) => p.path).join(', ')} failed.`;
  const shop = firstProductTimes(current.visits['/shop']);
  const home = firstProductTimes(current.visits['/']);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  writeRecordedBaseline({
    about: 'Milliseconds from navigation start to the first product name painted, cold visits in headless Chromium at 390x844 (bench/paint.ts); paintHomeMs: on /, below the first screen.',
    commit: current.commit,
    measuredOn: new Date().toISOString(),
    chromium: result.chromium,
    loadAverage: { before: round(result.loadAverage.before), after: round(result.loadAverage.after), cores: result.loadAverage.cores },
    runs,
    paintShopMs: round(median(shop)),
    paintShopRunsMs: shop.map(round),
    paintHomeMs: home.length ? round(median(home)) : null,
    paintHomeRunsMs: home.map(round),
  });
  return `BENCH_PAINT_RECORD: recorded these figures for ${current.commit.slice(0, 10)} in bench/baseline.json.`;
}
