import type { FastifyBaseLogger } from 'fastify';
import type { SharedCacheConfig } from '../config';
import { tagHeaders } from './shared-cache';

export interface PurgeTiming {
  /** Tags purged within this long of each other go in one request. */
  gatherMs: number;
  /**
   * The same tags are purged once more after this long: another process may still have drawn
   * one page from its own copy, before the change's notification reached it, and the shared cache
   * kept that (decision 0051). 0: not again.
   */
  settleMs: number;
  /** Waits before each new try of a purge that failed; after the last, it is given up and logged as an error. */
  retryMs: readonly number[];
  /** A purge that has no answer in this long has failed. */
  timeoutMs: number;
}

export const defaultPurgeTiming: PurgeTiming = { gatherMs: 20, settleMs: 1000, retryMs: [500, 2000, 5000, 15_000, 60_000], timeoutMs: 5000 };

/** Varnish's xkey takes tags in a header: a few hundred at most per request keeps it well under its header limit. */
const tagsPerVarnishPurge = 200;
/** Cloudflare's purge by tag takes at most 30 tags a call, Fastly's 256 keys. */
const tagsPerHookPurge = 30;

interface Target {
  name: string;
  send(tags: string[], signal: AbortSignal): Promise<Response>;
  chunk: number;
}

/**
 * Tells the shared caches in front of the shop that tags changed: each Varnish by purge-by-key
 * (`PURGE` with `xkey-purge`), and a CDN's hook by one POST with the tags. Only the process that
 * made a change purges. A purge that fails is tried again, logged each time, and logged as an
 * error when given up: a lost purge would keep a page stale for its whole s-maxage.
 */
export class CachePurger {
  private readonly targets: Target[];
  private pending = new Set<string>();
  private gatherTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sending = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  /** Purge requests answered 2xx, failed tries, and purges given up: for /metrics and the tests. */
  sent = 0;
  failures = 0;
  givenUp = 0;

  constructor(
    config: Pick<SharedCacheConfig, 'varnishUrls' | 'purgeUrl' | 'purgeHeader'>,
    private readonly log: FastifyBaseLogger,
    private readonly timing: PurgeTiming = defaultPurgeTiming,
  ) {
    this.targets = [
      ...config.varnishUrls.map((url) => ({
        name: url,
        chunk: tagsPerVarnishPurge,
        send: (tags: string[], signal: AbortSignal) => fetch(`${url}/`, { method: 'PURGE', headers: { 'xkey-purge': tags.join(' ') }, signal }),
      })),
      ...(config.purgeUrl
        ? [
            {
              name: new URL(config.purgeUrl).origin,
              chunk: tagsPerHookPurge,
              send: (tags: string[], signal: AbortSignal) =>
                fetch(config.purgeUrl!, {
                  method: 'POST',
                  headers: {
                    'content-type': 'application/json',
                    [tagHeaders.fastly]: tags.join(' '),
                    ...(config.purgeHeader ? { [config.purgeHeader.name]: config.purgeHeader.value } : {}),
                  },
                  body: JSON.stringify({ tags }),
                  signal,
                }),
            },
          ]
        : []),
    ];
  }

  /** Whether anything is told at all (no Varnish and no hook: nothing to do). */
  get active(): boolean {
    return this.targets.length > 0;
  }

  /** Purges the tags soon, with any others asked for meanwhile, and once more after the settle time. */
  purge(tags: Iterable<string>): void {
    if (!this.active || this.stopping.signal.aborted) return;
    for (const tag of tags) this.pending.add(tag);
    if (this.pending.size === 0 || this.gatherTimer) return;
    this.gatherTimer = setTimeout(() => {
      this.gatherTimer = undefined;
      const gathered = [...this.pending].sort();
      this.pending = new Set();
      this.sendEverywhere(gathered);
      if (this.timing.settleMs > 0) this.later(this.timing.settleMs, () => this.sendEverywhere(gathered));
    }, this.timing.gatherMs);
  }

  /** Resolves once nothing waits to be sent or is being sent (retries still to come are not waited for). */
  async idle(): Promise<void> {
    while (this.gatherTimer || this.sending.size) {
      await Promise.all(this.sending);
      if (this.gatherTimer) await new Promise((resolve) => setTimeout(resolve, this.timing.gatherMs));
    }
  }

  /** Sends what is gathered now, waits for the sends under way, and drops the retries and settle purges still to come, logging them. */
  async stop(): Promise<void> {
    if (this.gatherTimer) {
      clearTimeout(this.gatherTimer);
      this.gatherTimer = undefined;
      if (this.pending.size) this.sendEverywhere([...this.pending]);
      this.pending = new Set();
    }
    await Promise.all(this.sending);
    this.stopping.abort();
    if (this.timers.size) this.log.warn({ waiting: this.timers.size }, 'cache purges still to be retried were dropped at shutdown');
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private sendEverywhere(tags: string[]): void {
    for (const target of this.targets) {
      for (let start = 0; start < tags.length; start += target.chunk) this.attempt(target, tags.slice(start, start + target.chunk), 0);
    }
  }

  private attempt(target: Target, tags: string[], tries: number): void {
    const sent = (async () => {
      let problem: string;
      try {
        const response = await target.send(tags, AbortSignal.timeout(this.timing.timeoutMs));
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) {
          this.sent += 1;
          return;
        }
        problem = `answered ${response.status}`;
      } catch (error) {
        problem = (error as Error).message;
      }
      this.failures += 1;
      const wait = this.timing.retryMs[tries];
      if (wait === undefined || this.stopping.signal.aborted) {
        this.givenUp += 1;
        this.log.error({ target: target.name, tags, tries: tries + 1, problem }, 'a cache purge was given up: pages with these tags may be stale until their s-maxage ends');
        return;
      }
      this.log.warn({ target: target.name, tags, tries: tries + 1, problem, retryInMs: wait }, 'a cache purge failed, trying again');
      this.later(wait, () => this.attempt(target, tags, tries + 1));
    })();
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  private later(ms: number, work: () => void): void {
    if (this.stopping.signal.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
