/**
 * The processes and folders the bench starts, and how they are ended. Servers run as node (the
 * compiled shop, or TypeScript with tsx's loader), never under the tsx command: that one relays
 * SIGTERM to its node child and kills it if the child does not acknowledge within 30 ms, which a
 * server busy under load misses, so it never cleaned up. Each leads its own process group, and bench/reaper.ts ends whatever is left
 * when the bench stops, however it stops.
 */
import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Leftover, ReaperMessage } from './reaper';

const here = path.dirname(fileURLToPath(import.meta.url));
const stopTimeoutMs = 10_000;
let reaper: ChildProcess | undefined;

/** Hands a process group or folder to the reaper until `done`. */
export function leftover(item: Leftover, done = false): void {
  if (!reaper) {
    reaper = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'reaper.ts')], { cwd: path.join(here, '..'), stdio: ['pipe', 'ignore', 'inherit'] });
    // The reaper waits for this process to end; it must not keep it alive.
    reaper.unref();
    (reaper.stdin as Socket).unref();
  }
  const message: ReaperMessage = done ? { ...item, done } : item;
  reaper.stdin!.write(`${JSON.stringify(message)}\n`);
}

export interface BenchProcess {
  child: ChildProcess;
  hasExited(): boolean;
  /** SIGTERM (the server closes and cleans up), then SIGKILL to its group after ten seconds. */
  stop(): Promise<void>;
}

export function runTypeScript(script: string, options: SpawnOptions): BenchProcess {
  return runNode(['--import', 'tsx', script], options);
}

/** Node with these arguments, leading its own process group (see above). */
export function runNode(args: string[], options: SpawnOptions, node = process.execPath): BenchProcess {
  const child = spawn(node, args, { ...options, detached: true });
  const group = child.pid;
  if (group !== undefined) leftover({ group });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      if (group !== undefined) leftover({ group }, true);
      resolve();
    });
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    hasExited,
    async stop() {
      if (hasExited()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        try {
          if (group !== undefined) process.kill(-group, 'SIGKILL');
        } catch {
          // Gone in the meantime.
        }
      }, stopTimeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A server that is not Node (nginx, varnishd), leading its own process group, with the last of
 * what it wrote to stderr; stopped with `signal`, then SIGKILL after five seconds.
 */
export function runDaemon(command: string, args: string[], signal: NodeJS.Signals): BenchProcess & { errors(): string } {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  if (child.pid !== undefined) leftover({ group: child.pid });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    hasExited,
    errors: () => errors,
    async stop() {
      if (!hasExited()) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (!hasExited()) child.kill('SIGKILL');
      }
      if (child.pid !== undefined) leftover({ group: child.pid }, true);
    },
  };
}

/** Waits until `url`/readyz answers through the daemon (nginx, Varnish in front of the shop); stops it and says why when it cannot. */
export async function untilReady(daemon: BenchProcess & { errors(): string }, name: string, url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (daemon.hasExited()) throw new Error(`${name} stopped: ${daemon.errors()}`);
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      async (answer) => (await answer.arrayBuffer(), answer.ok),
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) {
      await daemon.stop();
      throw new Error(`${name} did not answer on ${url}: ${daemon.errors()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
