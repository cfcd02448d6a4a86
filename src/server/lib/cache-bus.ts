import type { Database } from '../db/client';

export const cacheTopics = ['products', 'settings', 'content', 'promos', 'reviews'] as const;
export type CacheTopic = (typeof cacheTopics)[number];

const channel = 'mango_cache';

/**
 * In-process caches are invalidated across processes: a write publishes its topic with NOTIFY and
 * every process (the writer too) drops its copy when the notification arrives. The writer also
 * drops its own copy at once, so its next read never serves stale data. No copy outlives
 * `cacheMaxAgeMs`, whatever the bus says.
 */
export class CacheBus {
  private readonly handlers = new Map<CacheTopic, Array<() => void>>();
  private readonly publishers: Array<(topic: CacheTopic, tags: readonly string[] | undefined) => void> = [];

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
   * Called in the process that made a change, once per change, after the other processes were
   * told: the shared cache in front is purged from here (lib/cache-purge.ts).
   */
  onPublish(listener: (topic: CacheTopic, tags: readonly string[] | undefined) => void): void {
    this.publishers.push(listener);
  }

  /**
   * Drops this process's copies of the topic without telling the others: for a change each
   * process sees by itself, such as the clock passing a pre-order opening.
   */
  invalidateHere(topic: CacheTopic): void {
    this.dispatch(topic);
  }

  /**
   * Called after a write has committed, so it never fails the request that made the write: when
   * the notification cannot be sent, the other processes catch up when their cached copies reach
   * their maximum age. `tags`: what the change shows in the shared cache, where the topic alone
   * does not say (a content page's slug, the product a review is of).
   */
  async publish(topic: CacheTopic, tags?: readonly string[]): Promise<void> {
    this.dispatch(topic);
    try {
      await this.database.notify(channel, topic);
    } catch (error) {
      console.warn(JSON.stringify({ level: 40, msg: 'cache change could not be announced to other processes', topic, err: (error as Error).message }));
    }
    for (const listener of this.publishers) listener(topic, tags);
  }

  private dispatch(topic: CacheTopic): void {
    for (const invalidate of this.handlers.get(topic) ?? []) invalidate();
  }
}

/**
 * The longest a cached copy is served: the last line of defence should a notification be lost in
 * a way the listener's gap handling and health check cannot see (decision 0005).
 */
export const cacheMaxAgeMs = 5 * 60 * 1000;

/**
 * One cached value, rebuilt on first read after an invalidation or once it is older than
 * `maxAgeMs`; concurrent readers share a build. Ages are measured on the monotonic clock, so a
 * change of the system time neither keeps a copy longer nor drops it early.
 */
export class CachedValue<T> {
  private value: Promise<T> | undefined;
  private builtAt = 0;
  private generation = 0;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly maxAgeMs = cacheMaxAgeMs,
  ) {}

  get(): Promise<T> {
    if (this.value && performance.now() - this.builtAt > this.maxAgeMs) this.invalidate();
    if (!this.value) {
      const generation = this.generation;
      // Measured from the start of the build: the copy is no older than the database at that moment.
      this.builtAt = performance.now();
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
