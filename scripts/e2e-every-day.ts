/**
 * Runs browser journeys that depend on today's date once for each day of a week, before and after
 * the packing cut-off, with the shop's clock started at that instant (SHOP_CLOCK_START).
 *
 *   npm run test:e2e:every-day                       the delivery journeys, the week from Mon 23 Nov 2026
 *   npm run test:e2e:every-day -- --from 2026-12-21  another week (Christmas, Boxing Day)
 *   npm run test:e2e:every-day -- --days 2           the first two days only (CI)
 *   npm run test:e2e:every-day -- e2e/checkout.spec.ts e2e/delivery.spec.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays } from '../src/contracts/dates';

const args = process.argv.slice(2);
const fromAt = args.indexOf('--from');
const from = fromAt >= 0 ? args.splice(fromAt, 2)[1]! : '2026-11-23';
if (!/^\d{4}-\d{2}-\d{2}$/.test(from)) throw new Error(`--from takes a date as YYYY-MM-DD, not ${from}`);
const daysAt = args.indexOf('--days');
const days = daysAt >= 0 ? Number(args.splice(daysAt, 2)[1]) : 7;
if (!Number.isInteger(days) || days < 1 || days > 31) throw new Error('--days takes a whole number of days from 1 to 31');
const specs = args.length ? args : ['e2e/delivery.spec.ts'];

/** The offset of New Zealand time from UTC at noon on `date`, as +13:00 or +12:00. */
function nzOffset(date: string): string {
  const parts = new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', timeZoneName: 'longOffset' }).formatToParts(new Date(`${date}T00:00:00Z`));
  return parts.find((part) => part.type === 'timeZoneName')!.value.replace('GMT', '') || '+00:00';
}

const results: Array<{ start: string; ok: boolean }> = [];
for (let day = 0; day < days; day += 1) {
  const date = addDays(from, day);
  // 09:00 is before the default 12:00 cut-off; 19:30 is after it, in the evening.
  for (const time of ['09:00', '19:30']) {
    const start = `${date}T${time}:00${nzOffset(date)}`;
    const weekday = new Date(`${date}T00:00:00Z`).toLocaleDateString('en-NZ', { weekday: 'short', timeZone: 'UTC' });
    console.log(`\n== ${weekday} ${start} ==`);
    // A fresh shop (its own data folder) for each start, removed after its run.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-e2e-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, E2E_CLOCK_START: start, MANGO_E2E_DATA_DIR: dataDir };
      const run = spawnSync('npx', ['playwright', 'test', ...specs], { stdio: 'inherit', env });
      results.push({ start: `${weekday} ${start}`, ok: run.status === 0 });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

console.log('\nThe shop\'s clock started at:');
for (const one of results) console.log(`  ${one.ok ? 'passed' : 'FAILED'}  ${one.start}`);
const failed = results.filter((one) => !one.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
