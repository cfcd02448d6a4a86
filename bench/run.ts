/**
 * npm run bench: load benchmarks on loopback (bounded: BENCH_SECONDS x BENCH_ROUNDS per target).
 * Set DATABASE_URL to run them on PostgreSQL instead of the embedded database.
 */
import { benchApi } from './api';

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

const { results, database } = await benchApi();
const bare = results[0]!;
console.log(`\nAPI throughput on ${database} (medians of interleaved rounds; ratio = req/s against the bare route)\n`);
console.log(`${pad('target', 52)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('ratio', 8)}errors/non-2xx`);
for (const r of results) {
  const ratio = `${Math.round((r.requestsPerSecond / bare.requestsPerSecond) * 100)}%`;
  console.log(`${pad(r.name, 52)}${pad(r.requestsPerSecond.toFixed(0), 10)}${pad(String(r.p50), 9)}${pad(String(r.p99), 9)}${pad(ratio, 8)}${r.errors}/${r.non2xx}`);
}
const listRatio = results[1]!.requestsPerSecond / bare.requestsPerSecond;
console.log(`\nProduct list at ${(listRatio * 100).toFixed(0)}% of the bare route (goal: at least 50%).`);
