import type { Database } from '../db/client';

export type CacheTopic = 'products' | 'settings' | 'content';

const channel = 'mango_cache';

/**
 * In-process caches are invalidated across processes: a write publishes its topic with NOTIFY and
 * every process (the writer too) drops its copy when the notification arrives. The writer also
 * drops its own copy at once, so its next read never serves stale data.
 */
export class CacheBus {
  private readonly handlers = new Map<CacheTopic, Array<() => void>>();

  constructor(private readonly database: Database) {}

  async start(): Promise<void> {
    // Notifications missed while the listener reconnects would leave stale copies: drop them all.
    await this.database.listen(
      channel,
      (payload) => this.dispatch(payload as CacheTopic),
      () => {
        for (const topic of this.handlers.keys()) this.dispatch(topic);
      },
    );
  }

  on(topic: CacheTopic, invalidate: () => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), invalidate]);
  }

  /**
   * Called after a write has committed, so it never fails the request that made the write: when
   * the notification cannot be sent, the other processes catch up when their cached copies reach
   * their maximum age.
   */
  async publish(topic: CacheTopic): Promise<void> {
    this.dispatch(topic);
    try {
      await this.database.notify(channel, topic);
    } catch (error) {
      console.warn(JSON.stringify({ level: 40, msg: 'cache change could not be announced to other processes', topic, err: (error as Error).message }));
    }
  }

  private dispatch(topic: CacheTopic): void {
    for (const invalidate of this.handlers.get(topic) ?? []) invalidate();
  }
}

/** One cached value, rebuilt on first read after an invalidation; concurrent readers share a build. */
export class CachedValue<T> {
  private value: Promise<T> | undefined;
  private generation = 0;

  constructor(private readonly load: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.value) {
      const generation = this.generation;
      const pending = this.load();
      this.value = pending;
      pending.catch(() => {
        if (this.generation === generation) this.value = undefined;
      });
    }
    return this.value;
  }

  invalidate(): void {
    this.generation += 1;
    this.value = undefined;
  }
}
