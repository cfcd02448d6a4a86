/**
 * Lighthouse's default run (mobile emulation, simulated throttling) on the shop's main pages,
 * several times each in a fresh headless Chromium. The full report of each page's last run is
 * written to bench/.out/ for the details.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { leftover } from './bench-process';
import { chromiumPath } from './bundle';
import { median } from './http';
import { printTable } from './table';

const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const attemptsPerRun = 2;
const runTimeoutMs = 2 * 60_000;
/** Lighthouse's own threshold: under it the host is too slow for the default 4x CPU slowdown. */
const slowHostBenchmarkIndex = 1000;
const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '.out');

/** The goal for each category's score, 0-100. */
const goals = { performance: 95, accessibility: 98, 'best-practices': 100, seo: 100 } as const;
/** The goal for each of the page's key measures: the most it may be (ms, or a shift score). */
const metricGoals = {
  'largest-contentful-paint': { label: 'LCP', most: 2_000, unit: 'ms' },
  'cumulative-layout-shift': { label: 'CLS', most: 0.02, unit: '' },
  'total-blocking-time': { label: 'TBT', most: 100, unit: 'ms' },
} as const;
type Metric = keyof typeof metricGoals;
const metrics = Object.keys(metricGoals) as Metric[];
type Category = keyof typeof goals;
const categories = Object.keys(goals) as Category[];

export interface PageScores {
  name: string;
  url: string;
  /** Runs that gave a report, and the distinct errors of the others (Lighthouse sometimes loses a trace). */
  runs: number;
  errors: string[];
  scores: Record<Category, number | null>;
  /** Medians of the runs' key measures. */
  measures: Record<Metric, number | null>;
  /** Lighthouse's measure of the host's CPU speed, median of the runs. */
  benchmarkIndex: number | null;
  /** Audits that fall short in each category under its goal, from the last run. */
  failing: Array<{ category: Category; id: string; title: string; displayValue: string | undefined }>;
  reportPath: string;
}

/** A shop to audit; `reportPrefix` names its saved reports apart (the baseline's beside this checkout's). */
export interface LighthouseTarget {
  url: string;
  label: string;
  reportPrefix: string;
}

interface Collected {
  reports: Result[];
  errors: string[];
}

async function pagesAt(shopUrl: string): Promise<Array<readonly [string, string]>> {
  const products = (await (await fetch(`${shopUrl}/api/products`)).json()) as Array<{ id: number }>;
  if (!products[0]) throw new Error('the shop has no products to open');
  return [
    ['home', `${shopUrl}/`],
    ['shop', `${shopUrl}/shop`],
    ['product', `${shopUrl}/product/${products[0].id}`],
    ['content', `${shopUrl}/about`],
  ] as const;
}

/**
 * Each page of each shop, `runs` times. With several shops (a baseline beside this checkout) they
 * take turns page by page, in one order on odd runs and the other on even runs, so a machine that
 * gets busier or quieter during the report weighs on both alike. Answers each shop's pages.
 */
export async function benchLighthouse(targets: LighthouseTarget[]): Promise<PageScores[][]> {
  const pagesOf = await Promise.all(targets.map((target) => pagesAt(target.url)));
  const collected: Collected[][] = targets.map(() => pagesOf[0]!.map(() => ({ reports: [], errors: [] })));
  fs.mkdirSync(outDir, { recursive: true });
  for (let run = 1; run <= runs; run += 1) {
    for (let page = 0; page < pagesOf[0]!.length; page += 1) {
      const turns = targets.map((_target, index) => index);
      if (run % 2 === 0) turns.reverse();
      for (const shop of turns) await auditRun(pagesOf[shop]![page]![1], run, targets.length > 1 ? targets[shop]!.label : undefined, collected[shop]![page]!);
    }
  }
  return targets.map((target, shop) => pagesOf[shop]!.map(([name, url], page) => summarize(name, url, target.reportPrefix, collected[shop]![page]!)));
}

async function auditRun(url: string, run: number, label: string | undefined, into: Collected): Promise<void> {
  // Lighthouse now and then loses the trace of a load (NO_NAVSTART) and asks to be run again.
  for (let attempt = 1; attempt <= attemptsPerRun; attempt += 1) {
    const started = Date.now();
    try {
      into.reports.push(await audit(url));
      log(url, run, label, `done in ${seconds(started)} s`);
      return;
    } catch (error) {
      const message = (error as Error).message;
      log(url, run, label, `failed in ${seconds(started)} s${attempt < attemptsPerRun ? ', trying again' : ''}: ${message}`);
      if (attempt === attemptsPerRun && !into.errors.includes(message)) into.errors.push(message);
    }
  }
}

function summarize(name: string, url: string, reportPrefix: string, { reports, errors }: Collected): PageScores {
  const reportPath = path.join(outDir, `${reportPrefix}-${name}.json`);
  const last = reports.at(-1);
  if (last) fs.writeFileSync(reportPath, JSON.stringify(last, null, 2));
  const scores = Object.fromEntries(categories.map((c) => [c, medianScore(reports, c)])) as PageScores['scores'];
  const under = categories.filter((c) => (scores[c] ?? 0) < goals[c]);
  return {
    name,
    url,
    runs: reports.length,
    errors,
    scores,
    measures: Object.fromEntries(metrics.map((m) => [m, medianMeasure(reports, m)])) as PageScores['measures'],
    benchmarkIndex: reports.length ? median(reports.map((r) => r.environment.benchmarkIndex)) : null,
    failing: last ? under.flatMap((c) => failingAudits(last, c)) : [],
    reportPath,
  };
}

function log(url: string, run: number, label: string | undefined, outcome: string): void {
  process.stdout.write(`  lighthouse ${new URL(url).pathname}${label ? ` (${label})` : ''} run ${run}/${runs}: ${outcome}\n`);
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(0);
}

/** One Lighthouse run in its own Chromium, which is killed afterwards, also on failure or timeout. */
async function audit(url: string): Promise<Result> {
  process.env.CHROME_PATH = chromiumPath;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-chromium-'));
  leftover({ folder: profile });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    chrome = await chromeLauncher.launch({
      chromePath: chromiumPath,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      userDataDir: profile,
      handleSIGINT: false,
      logLevel: 'silent',
    });
    leftover({ group: chrome.pid });
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse took over ${runTimeoutMs / 1000} s on ${url}`)), runTimeoutMs);
    });
    const result = await Promise.race([lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories }), timeout]);
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    clearTimeout(timer);
    if (chrome) {
      chrome.kill();
      leftover({ group: chrome.pid }, true);
    }
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    leftover({ folder: profile }, true);
  }
}

function medianMeasure(reports: Result[], metric: Metric): number | null {
  const values = reports.map((r) => r.audits[metric]?.numericValue).filter((v): v is number => typeof v === 'number');
  return values.length ? median(values) : null;
}

function medianScore(reports: Result[], category: Category): number | null {
  const scores = reports.map((r) => r.categories[category]?.score).filter((s): s is number => typeof s === 'number');
  return scores.length ? Math.round(median(scores) * 100) : null;
}

/** Lighthouse shows an audit as passed from a score of 0.9; informative and manual audits have none. */
function failingAudits(report: Result, category: Category): PageScores['failing'] {
  return (report.categories[category]?.auditRefs ?? []).flatMap((ref) => {
    const result = report.audits[ref.id];
    if (!result || result.score === null || result.score >= 0.9) return [];
    return [{ category, id: ref.id, title: result.title, displayValue: result.displayValue }];
  });
}

export function printLighthouse(pages: PageScores[]): void {
  const score = (value: number | null, goal: number) => (value === null ? 'n/a' : `${value}${value < goal ? ' !' : ''}`);
  const measure = (value: number | null, metric: Metric) => {
    if (value === null) return 'n/a';
    const { most, unit } = metricGoals[metric];
    const shown = unit === 'ms' ? `${Math.round(value)} ms` : value.toFixed(3);
    return `${shown}${value > most ? ' !' : ''}`;
  };
  const goalsText = [...categories.map((c) => `${c} >= ${goals[c]}`), ...metrics.map((m) => `${metricGoals[m].label} <= ${metricGoals[m].most}${metricGoals[m].unit && ` ${metricGoals[m].unit}`}`)].join(', ');
  console.log(`\nLighthouse, mobile, default settings (medians of ${runs} runs; ! = misses the goal: ${goalsText})\n`);
  printTable(
    ['page', ...categories, ...metrics.map((m) => metricGoals[m].label), 'CPU index'],
    pages.map((p) => [
      new URL(p.url).pathname,
      ...categories.map((c) => score(p.scores[c], goals[c])),
      ...metrics.map((m) => measure(p.measures[m], m)),
      p.benchmarkIndex === null ? 'n/a' : String(Math.round(p.benchmarkIndex)),
    ]),
  );
  const indexes = pages.flatMap((p) => (p.benchmarkIndex === null ? [] : [p.benchmarkIndex]));
  if (indexes.length) console.log(`\nCPU benchmark index (Lighthouse's measure of this machine): ${Math.round(median(indexes))}`);
  if (indexes.length && median(indexes) < slowHostBenchmarkIndex) {
    console.log(
      `\nThis machine's CPU benchmark index is ${Math.round(median(indexes))}, under the ${slowHostBenchmarkIndex} Lighthouse's default 4x CPU slowdown is calibrated for (or it was busy):` +
        '\nthe performance scores overstate the main-thread cost a phone would see.',
    );
  }
  for (const page of pages) {
    const pathname = new URL(page.url).pathname;
    if (!page.runs) {
      console.log(`\n${pathname}: every run failed: ${page.errors.join('; ')}`);
      continue;
    }
    console.log(`\n${pathname}: ${page.runs} of ${runs} runs, report of the last in ${path.relative(process.cwd(), page.reportPath)}`);
    for (const error of page.errors) console.log(`  a run failed: ${error}`);
    if (!page.failing.length) console.log('  every category meets its goal');
    for (const f of page.failing) console.log(`  [${f.category}] ${f.id}: ${f.title}${f.displayValue ? ` (${f.displayValue})` : ''}`);
  }
}
