/**
 * bench/baseline.json: the client-rendered shop's figures, measured once on a quiet machine and
 * committed, so the paint report can compare against them without building the old code. A run
 * with BENCH_PAINT_BASELINE measures the old code beside the new one instead, which is fairer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const recordedBaselinePath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'baseline.json');

const recordedBaseline = z.object({
  about: z.string(),
  /** The commit whose app was measured (git rev-parse HEAD). */
  commit: z.string(),
  measuredOn: z.string(),
  chromium: z.string(),
  /** The 1-minute load average before and after the runs, and the machine's cores. */
  loadAverage: z.object({ before: z.number(), after: z.number(), cores: z.number() }),
  runs: z.number(),
  paintShopMs: z.number(),
  paintShopRunsMs: z.array(z.number()),
  paintHomeMs: z.number().nullable(),
  paintHomeRunsMs: z.array(z.number()),
});
export type RecordedBaseline = z.infer<typeof recordedBaseline>;

export function readRecordedBaseline(): RecordedBaseline | undefined {
  if (!fs.existsSync(recordedBaselinePath)) return undefined;
  return recordedBaseline.parse(JSON.parse(fs.readFileSync(recordedBaselinePath, 'utf8')));
}

export function writeRecordedBaseline(baseline: RecordedBaseline): void {
  fs.writeFileSync(recordedBaselinePath, `${JSON.stringify(recordedBaseline.parse(baseline), null, 2)}\n`);
}
