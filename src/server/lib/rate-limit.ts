import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client';
import { TooManyRequests } from './errors';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

interface WindowRow extends Record<string, unknown> {
  hits: number;
  window_start: Date | string;
}

/**
 * Fixed-window counters kept in PostgreSQL so every server process behind a load balancer counts
 * the same hits. One upsert per counted request; only sign-in, registration and password reset use it.
 */
export class RateLimiter {
  constructor(private readonly db: Db) {}

  /** Counts one hit and answers the hits so far in the current window. */
  async hit(limit: Limit): Promise<{ hits: number; resetAt: number }> {
    const seconds = limit.windowMs / 1000;
    const [row] = await queryRows<WindowRow>(this.db, sql`
      insert into rate_limits (key, window_start, hits) values (${limit.key}, now(), 1)
      on conflict (key) do update set
        hits = case when rate_limits.window_start < now() - make_interval(secs => ${seconds}) then 1 else rate_limits.hits + 1 end,
        window_start = case when rate_limits.window_start < now() - make_interval(secs => ${seconds}) then now() else rate_limits.window_start end
      returning hits, window_start`);
    return { hits: Number(row!.hits), resetAt: new Date(row!.window_start).getTime() + limit.windowMs };
  }

  /**
   * Counts a hit and throws 429 when it goes over the limit. The count and the check are one
   * statement, so of N parallel requests exactly `max` pass: count first, then do the costly work.
   */
  async consume(limit: Limit, message: string): Promise<void> {
    const { hits, resetAt } = await this.hit(limit);
    if (hits > limit.max) throw tooMany(message, resetAt);
  }

  /**
   * Counts one attempt against each limit at once and throws 429 when any is over. Attempts that
   * turn out well are given back with `forgive`, so the limits count failures only.
   */
  async attempt(limits: Limit[], message: string): Promise<void> {
    const counted = await Promise.all(limits.map((limit) => this.hit(limit).then((result) => ({ limit, ...result }))));
    const over = counted.find(({ limit, hits }) => hits > limit.max);
    if (over) throw tooMany(message, over.resetAt);
  }

  /** Takes back one counted attempt (it succeeded), never below zero. */
  async forgive(limits: Limit[]): Promise<void> {
    for (const limit of limits) {
      await this.db.execute(sql`update rate_limits set hits = greatest(hits - 1, 0) where key = ${limit.key}`);
    }
  }

  async purgeExpired(olderThanMs: number): Promise<void> {
    await this.db.execute(sql`delete from rate_limits where window_start < now() - make_interval(secs => ${olderThanMs / 1000})`);
  }
}

function tooMany(message: string, resetAt: number): TooManyRequests {
  return new TooManyRequests(message, Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)));
}
