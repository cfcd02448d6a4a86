import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export type LoadOptions = Omit<autocannon.Options, 'url' | 'duration' | 'connections'>;

/** One autocannon round on loopback, bounded in time. */
export async function load(name: string, url: string, seconds: number, connections: number, options: LoadOptions = {}): Promise<LoadResult> {
  const result = await autocannon({ url, duration: seconds, connections, ...options });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The `q` quantile (0 to 1) of `sorted` (ascending), rounded to a millisecond: the nearest rank. */
export function percentile(sorted: number[], q: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
}

/** Medians of several rounds of one target. */
export function summarise(rounds: LoadResult[]): LoadResult {
  return {
    name: rounds[0]!.name,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

/**
 * Each target once untimed (the JIT warms up), then `rounds` rounds of `seconds` each, the targets
 * in turn within a round, so drift on a shared machine hits them all; each target's results.
 */
export async function interleavedRounds<T extends readonly [string, ...unknown[]]>(targets: readonly T[], rounds: number, seconds: number, run: (target: T, seconds: number) => Promise<LoadResult>): Promise<LoadResult[][]> {
  for (const target of targets) await run(target, 1);
  const byTarget = targets.map(() => [] as LoadResult[]);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, target] of targets.entries()) {
      process.stdout.write(`  round ${round + 1}/${rounds}: ${target[0]}\n`);
      byTarget[index]!.push(await run(target, seconds));
    }
  }
  return byTarget;
}
