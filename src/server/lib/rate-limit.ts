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

  /** Hits so far without counting one. */
  async peek(limit: Limit): Promise<{ hits: number; resetAt: number }> {
    const seconds = limit.windowMs / 1000;
    const [row] = await queryRows<WindowRow>(this.db, sql`
      select hits, window_start from rate_limits
      where key = ${limit.key} and window_start >= now() - make_interval(secs => ${seconds})`);
    return row
      ? { hits: Number(row.hits), resetAt: new Date(row.window_start).getTime() + limit.windowMs }
      : { hits: 0, resetAt: Date.now() + limit.windowMs };
  }

  /** Throws 429 when the limit is already used up. */
  async ensureRoom(limit: Limit, message: string): Promise<void> {
    const { hits, resetAt } = await this.peek(limit);
    if (hits >= limit.max) throw tooMany(message, resetAt);
  }

  /** Counts a hit and throws 429 when it goes over the limit. */
  async consume(limit: Limit, message: string): Promise<void> {
    const { hits, resetAt } = await this.hit(limit);
    if (hits > limit.max) throw tooMany(message, resetAt);
  }

  async purgeExpired(olderThanMs: number): Promise<void> {
    await this.db.execute(sql`delete from rate_limits where window_start < now() - make_interval(secs => ${olderThanMs / 1000})`);
  }
}

function tooMany(message: string, resetAt: number): TooManyRequests {
  return new TooManyRequests(message, Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)));
}
