/**
 * What a report measures side by side: this checkout, and with `npm run bench -- --baseline REV`
 * (or BENCH_BASELINE=REV) the shop at REV, checked out in a temporary worktree, built and run the
 * same way in the same run. On PostgreSQL (DATABASE_URL) each shop gets a database of its own,
 * made on that server for the run and dropped afterwards, as the two may differ in their tables.
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { type BaselineTree, checkOutBaseline, git } from './baseline-tree';
import { benchProcesses } from './behind-nginx';
import { type RunningShop, startShop, type StartOptions } from './shop-server';

export interface Contender {
  label: string;
  /** The checkout's folder; undefined for this one. */
  tree?: string;
  /** The Node.js binary its server runs on; the bench's own when undefined. */
  node?: string;
  /** The baseline's full commit; undefined for this checkout. */
  commit?: string;
}

let baseline: BaselineTree | undefined;

/** The label of this checkout in every report; the goals are judged on its rows. */
export const thisCheckout = 'this checkout';

/** The baseline ref asked for, if any. */
export function baselineRef(): string | undefined {
  return process.env.BENCH_BASELINE?.trim() || undefined;
}

/** This checkout first, then the baseline (checked out once per run). */
export function contenders(): Contender[] {
  const ref = baselineRef();
  if (!ref) return [{ label: thisCheckout }];
  baseline ??= checkOutBaseline(ref);
  // BENCH_BASELINE_NODE runs the baseline on another Node.js (e.g. --baseline HEAD to compare two Node versions).
  const node = process.env.BENCH_BASELINE_NODE?.trim() || undefined;
  const label = `${ref.slice(0, 12)} (${baseline.commit.slice(0, 7)}${node ? `, ${nodeVersion(node)}` : ''})`;
  return [{ label: thisCheckout }, { label, tree: baseline.tree, node, commit: baseline.commit }];
}

const versions = new Map<string, string>();

/** The version a Node.js binary reports, e.g. v20.20.2. */
export function nodeVersion(node: string): string {
  if (!versions.has(node)) versions.set(node, spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim() || node);
  return versions.get(node)!;
}

/** This checkout's commit, and whether its sources differ from it. */
export function thisCommit(): string {
  const commit = git(['rev-parse', '--short', 'HEAD']);
  return git(['status', '--porcelain', '--', 'src', 'scripts', 'package.json']) ? `${commit} + uncommitted changes` : commit;
}

export type DatabaseKind = 'pglite' | 'postgres';

/** The embedded database always; PostgreSQL too when DATABASE_URL is set. */
export function databases(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

let madeDatabases = 0;

/**
 * A running shop of `contender` on `database`, logging every request (info) to a file as in
 * production; `env` adds settings. Its stop() also drops a PostgreSQL database made for it.
 */
let toldProcesses = false;

export async function startContender(contender: Contender, database: DatabaseKind, env: NodeJS.ProcessEnv = {}, options: Omit<StartOptions, 'tree' | 'env'> = {}): Promise<RunningShop> {
  let dropDatabase = async () => {};
  const settings: NodeJS.ProcessEnv = { LOG_LEVEL: 'info', ...env };
  if (database === 'postgres') {
    const server = new URL(process.env.DATABASE_URL!);
    const name = `mango_bench_${process.pid}_${(madeDatabases += 1)}`;
    const onServer = async (statements: string[]) => {
      const client = new pg.Client({ connectionString: server.toString() });
      await client.connect();
      try {
        for (const statement of statements) await client.query(statement);
      } finally {
        await client.end();
      }
    };
    await onServer([`drop database if exists ${name}`, `create database ${name}`]);
    const url = new URL(server.toString());
    url.pathname = `/${name}`;
    settings.DATABASE_URL = url.toString();
    dropDatabase = () => onServer([`drop database if exists ${name} with (force)`]);
  }
  let shop: RunningShop;
  try {
    // On PostgreSQL, BENCH_PROCESSES shop processes behind nginx, as docs/operations.md's recipe runs them.
    if (database === 'postgres' && benchProcesses > 1 && !toldProcesses) {
      toldProcesses = true;
      process.stdout.write(`  (on PostgreSQL each shop runs as ${benchProcesses} processes behind nginx: BENCH_PROCESSES)\n`);
    }
    shop = await startShop({ tree: contender.tree, env: settings, logToFile: true, node: contender.node, processes: database === 'postgres' ? benchProcesses : 1, ...options });
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  return {
    ...shop,
    async stop() {
      await shop.stop();
      await dropDatabase();
    },
  };
}

/** `value` of this checkout against the baseline's, as "1.23x". */
export function times(current: number, base: number | undefined): string {
  if (base === undefined || !Number.isFinite(base) || base === 0) return '';
  return `${(current / base).toFixed(2)}x`;
}
