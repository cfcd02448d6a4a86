import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db } from '../../db/client';
import type { CacheTopic } from '../../lib/cache-bus';
import type { CachePurger } from '../../lib/cache-purge';
import { cacheTags } from '../../lib/shared-cache';
import type { CatalogService } from './service';

/** The row that says which process is comparing the products' shapes; one left by a process that died is taken over after this. */
const leaseSeconds = 30;
const leaseTag = '.comparing';
/** Changes within this long of each other are compared once. */
const gatherMs = 20;
/** Another process is comparing: look again after this. */
const busyRetryMs = 100;
/**
 * Comparisons start at least this far apart: in a rush every order is a change to products, and
 * a comparison reads them all (on the embedded database, in the same process as the orders).
 * A change still reaches the shared cache well within a second.
 */
const comparedAtMostEveryMs = 250;
/** A comparison that failed (the database away) is tried again after this, doubling each time up to a minute. */
const failedRetryMs = 500;
const failedRetryMaxMs = 60_000;

/**
 * Works out what a change altered for the shared cache, and purges exactly that (docs/shared-cache.md).
 * Settings, offers, content and reviews name their tags; a change to products (an edit, an order,
 * a batch, a recall: one topic for them all) is compared with what each product showed before,
 * kept in `shared_cache_shapes`, so a box sold purges nothing until the stock reaches zero. One
 * process compares at a time, each from the database as it is once it holds the turn, so the
 * stored shapes only ever move forward and each changed one is purged once, by whichever process
 * wrote it.
 */
export class SharedCacheChanges {
  private comparing: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastStartedAt = Number.NEGATIVE_INFINITY;
  private readonly holder = randomUUID();
  private buildTag: string | undefined;
  private stopped = false;

  constructor(private readonly deps: { db: Db; catalog: CatalogService; purger: CachePurger; log: FastifyBaseLogger }) {}

  changed(topic: CacheTopic, tags: readonly string[] | undefined): void {
    const { purger } = this.deps;
    if (!purger.active) return;
    if (tags) purger.purge(tags);
    if (topic === 'settings') purger.purge([cacheTags.settings]);
    if (topic === 'promos') purger.purge([cacheTags.banners]);
    // A setting can change products too (the low-stock threshold).
    if (topic === 'products' || topic === 'settings') this.compareSoon();
  }

  /** A pre-order's opening time came: its product's pages change with no write to say so. */
  clockPassed(): void {
    if (this.deps.purger.active) this.compareSoon();
  }

  /** The build this process draws pages with (its tag on every shared page). */
  pagesBuiltBy(tag: string): void {
    this.buildTag = tag;
  }

  /**
   * At start: shapes that changed while no process compared them (an upgrade, a restore) are
   * purged, and so are pages drawn by any other build (an upgrade, or the processes not yet
   * restarted in a rolling one): they link scripts this build no longer serves.
   */
  async start(): Promise<void> {
    if (!this.deps.purger.active) return;
    this.compareSoon();
    const tag = this.buildTag;
    if (!tag) return;
    try {
      const others = await this.otherBuilds(tag);
      if (others.length) this.deps.purger.purge(others);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not look up the pages of earlier builds to purge');
    }
  }

  /**
   * Records this build, and answers the tags of every other one recorded. Builds not started for a
   * week are then forgotten: this purge was the last that could concern their pages (a build that
   * ran longer than that without a restart is still named here, once).
   */
  private async otherBuilds(tag: string): Promise<string[]> {
    const { db } = this.deps;
    await db.execute(sql`insert into shared_cache_shapes (tag, shape) values (${tag}, 'build') on conflict (tag) do update set updated_at = now()`);
    const rows = await queryRows<{ tag: string }>(db, sql`select tag from shared_cache_shapes where tag like 'build:%' and tag <> ${tag}`);
    await db.execute(sql`delete from shared_cache_shapes where tag like 'build:%' and updated_at < now() - interval '7 days'`);
    return rows.map((row) => row.tag);
  }

  /** Waits for a comparison under way; none starts after. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.comparing;
  }

  /** Resolves once no comparison waits or runs (the tests wait for it). */
  async idle(): Promise<void> {
    while (this.timer || this.comparing) {
      if (this.comparing) await this.comparing;
      else await new Promise((resolve) => setTimeout(resolve, gatherMs));
    }
  }

  private compareSoon(delayMs = gatherMs): void {
    if (this.stopped) return;
    if (this.comparing) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(delayMs, this.lastStartedAt + comparedAtMostEveryMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastStartedAt = performance.now();
      let failed = false;
      this.comparing = this.compare()
        .then(() => {
          this.failures = 0;
        })
        .catch((error: unknown) => {
          failed = true;
          this.failures += 1;
          const retryMs = Math.min(failedRetryMs * 2 ** (this.failures - 1), failedRetryMaxMs);
          this.deps.log[this.failures === 1 ? 'error' : 'warn']({ err: error, retryMs }, 'could not compare the products for the shared cache: trying again');
          this.again = true;
          return retryMs;
        })
        .then((retryMs) => {
          this.comparing = undefined;
          if (this.again) {
            this.again = false;
            this.compareSoon(failed && typeof retryMs === 'number' ? retryMs : busyRetryMs);
          }
        });
    }, wait);
  }

  private async compare(): Promise<void> {
    const { db } = this.deps;
    const [turn] = await queryRows<{ tag: string }>(
      db,
      sql`insert into shared_cache_shapes (tag, shape) values (${leaseTag}, ${this.holder})
          on conflict (tag) do update set shape = excluded.shape, updated_at = now()
          where shared_cache_shapes.shape in ('', ${this.holder}) or shared_cache_shapes.updated_at < now() - make_interval(secs => ${leaseSeconds})
          returning tag`,
    );
    if (!turn) {
      this.again = true;
      return;
    }
    try {
      const shapes = await this.deps.catalog.sharedShapes();
      const rows = JSON.stringify([...shapes].map(([tag, shape]) => ({ tag, shape })));
      const changed = await queryRows<{ tag: string }>(
        db,
        sql`insert into shared_cache_shapes (tag, shape)
            select tag, shape from json_to_recordset(${rows}::json) as given(tag text, shape text)
            on conflict (tag) do update set shape = excluded.shape, updated_at = now()
            where shared_cache_shapes.shape <> excluded.shape
            returning tag`,
      );
      // A product deleted: its pages are gone too.
      const ids = [...shapes.keys()].filter((tag) => /^\d+$/.test(tag));
      const gone = await queryRows<{ tag: string }>(
        db,
        sql`delete from shared_cache_shapes where tag ~ '^[0-9]+$' and not (tag = any(${`{${ids.join(',')}}`}::text[])) returning tag`,
      );
      const tags = [...changed, ...gone].map((row) => row.tag);
      if (tags.length) this.deps.purger.purge(tags);
    } finally {
      await db.execute(sql`update shared_cache_shapes set shape = '' where tag = ${leaseTag} and shape = ${this.holder}`);
    }
  }
}
