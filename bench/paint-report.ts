import path from 'node:path';
import type { VisitTiming } from './first-product';
import { median } from './http';
import { firstProductTimes, type MeasuredCode, type PaintResult, paintGoals, paintPages } from './paint';
import { recordedBaselinePath } from './recorded-baseline';
import { printTable } from './table';

const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(0));

function codeName(code: MeasuredCode): string {
  return `${code.label} (${code.commit.slice(0, 10)}${code.uncommitted ? ', with uncommitted changes' : ''})`;
}

/** The median of `pick` over the visits that have it. */
function medianOf(visits: VisitTiming[], pick: (visit: VisitTiming) => number | undefined): number | undefined {
  const values = visits.flatMap((visit) => {
    const value = pick(visit);
    return value === undefined || Number.isNaN(value) ? [] : [value];
  });
  return values.length ? median(values) : undefined;
}

/** Each API path the page called before its first product, with the median start and end. */
function apiCalls(visits: VisitTiming[]): string {
  const paths = [...new Set(visits.flatMap((visit) => visit.apiCalls.map((call) => call.path)))];
  return paths
    .map((apiPath) => {
      const calls = visits.flatMap((visit) => visit.apiCalls.filter((call) => call.path === apiPath));
      return `${apiPath} ${ms(median(calls.map((c) => c.startMs)))}-${ms(median(calls.map((c) => c.endMs)))}`;
    })
    .join(', ') || 'none';
}

export function printPaint(result: PaintResult): void {
  const { current, baseline, loadAverage } = result;
  const codes = baseline ? [baseline, current] : [current];
  console.log(
    `\nFirst product name on screen, from navigation start: headless Chromium ${result.chromium}, 390x844 at 3x (mobile), a new context per visit (cold cache, no service worker), no throttling; ${result.runs} runs${baseline ? ', the two shops in turn' : ''}; load average ${loadAverage.before.toFixed(1)} before, ${loadAverage.after.toFixed(1)} after, on ${loadAverage.cores} cores\n`,
  );
  if (loadAverage.before >= loadAverage.cores * 0.75) console.log('The machine was busy with other work before the runs: the times are pessimistic.\n');
  printTable(
    ['page', 'code', 'median ms', 'runs ms'],
    paintPages.flatMap((page) =>
      codes.map((code) => {
        const visits = code.visits[page.path];
        return [page.path, codeName(code), ms(medianOf(visits, (v) => v.firstProductMs)), visits.map((v) => (v.firstProductMs === undefined ? 'failed' : ms(v.firstProductMs))).join(', ')];
      }),
    ),
  );
  console.log('\nWhere the time goes (medians, ms from navigation start; scripts and API calls finished before the first product)\n');
  printTable(
    ['page', 'code', 'first byte', 'document', 'first paint', 'scripts', 'last script', 'API calls (start-end)', 'first product'],
    paintPages.flatMap((page) =>
      codes.map((code) => {
        const visits = code.visits[page.path].filter((v) => v.firstProductMs !== undefined);
        return [
          page.path,
          code.label,
          ms(medianOf(visits, (v) => v.firstByteMs)),
          ms(medianOf(visits, (v) => v.documentMs)),
          ms(medianOf(visits, (v) => v.firstPaintMs)),
          String(medianOf(visits, (v) => v.scripts.length) ?? '-'),
          ms(medianOf(visits, (v) => (v.scripts.length ? Math.max(...v.scripts.map((s) => s.endMs)) : undefined))),
          apiCalls(visits),
          ms(medianOf(visits, (v) => v.firstProductMs)),
        ];
      }),
    ),
  );
  for (const code of codes) {
    for (const page of paintPages) {
      const errors = [...new Set(code.visits[page.path].flatMap((v) => (v.error ? [v.error] : [])))];
      for (const error of errors) console.log(`\n${code.label} ${page.path}: a visit failed: ${error}`);
    }
  }
  if (result.rebuilt) console.log('\nThe web app was rebuilt while the report ran (dist/web changed): pages may have failed to load. Run it again.');
  printGoal(result);
  if (result.recording) console.log(result.recording);
}

function printGoal({ current, baseline, recorded }: PaintResult): void {
  const shopTimes = firstProductTimes(current.visits['/shop']);
  const failed = current.visits['/shop'].length - shopTimes.length;
  const shopMs = shopTimes.length ? median(shopTimes) : NaN;
  const file = path.relative(process.cwd(), recordedBaselinePath);
  let baselineMs: number | undefined;
  if (baseline) {
    const times = firstProductTimes(baseline.visits['/shop']);
    baselineMs = times.length ? median(times) : undefined;
    console.log(`\nBaseline: ${ms(baselineMs)} ms on /shop for ${codeName(baseline)}, measured in this run.`);
  } else if (recorded) {
    baselineMs = recorded.paintShopMs;
    console.log(
      `\nBaseline: ${ms(baselineMs)} ms on /shop recorded in ${file} (commit ${recorded.commit.slice(0, 10)}, ${recorded.measuredOn}, Chromium ${recorded.chromium}, load average ${recorded.loadAverage.before}), not measured in this run: set BENCH_PAINT_BASELINE=<commit> to measure it beside this checkout.`,
    );
    if (recorded.commit === current.commit && !current.uncommitted) console.log(`This checkout is the code ${file} was measured on.`);
  } else {
    console.log(`\nNo baseline: run with --baseline <commit> (or BENCH_PAINT_BASELINE), or record one in ${file} with BENCH_PAINT_RECORD=1.`);
  }
  const ratio = baselineMs === undefined ? undefined : baselineMs / shopMs;
  if (ratio !== undefined) console.log(`Baseline / this checkout: ${ratio.toFixed(2)}x.`);
  const met = !failed && shopMs <= paintGoals.shopMs && ratio !== undefined && ratio >= paintGoals.timesSooner;
  console.log(
    `First product on /shop: ${ms(shopMs)} ms (goal: at most ${paintGoals.shopMs} ms, and at least ${paintGoals.timesSooner}x sooner than the baseline): ${met ? 'met' : 'NOT met'}${failed ? ` (${failed} of ${current.visits['/shop'].length} visits failed)` : ''}.`,
  );
}
