import { and, eq, isNull, lt, lte, or, type SQLWrapper, sql } from 'drizzle-orm';
import { type Database, type Db, queryRows, type Tx } from '../db/client';
import { mailOutbox } from '../db/schema';
import { type MailMessage, type MailTransport, PermanentMailError, UncertainMailError } from './mail';

const channel = 'mango_mail';

/**
 * Puts a mail in the outbox. Pass the transaction of the change that causes the mail: both are
 * kept, or neither. The NOTIFY is delivered when the transaction commits, and wakes the workers.
 * A mail with `expiresAt` (a reset link's expiry) that is still unsent by then is given up.
 * `alongside` are writes of the same change (inserts, updates, deletes whose answers nobody reads)
 * sent in the same statement: on the embedded database each statement waits its turn.
 */
export async function queueMail(db: Db | Tx, message: MailMessage, options: { expiresAt?: Date; alongside?: SQLWrapper[] } = {}): Promise<void> {
  const insert = db
    .insert(mailOutbox)
    .values({
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html ?? null,
      headers: message.headers ?? {},
      expiresAt: options.expiresAt ?? null,
    })
    .returning({ id: mailOutbox.id });
  // Each write of a WITH runs once and to the end, read or not; drizzle puts each in parentheses.
  const writes = (options.alongside ?? []).map((write, index) => sql`${sql.raw(`write_${index}`)} as ${write}, `);
  await db.execute(sql`with ${sql.join(writes)}queued as ${insert} select pg_notify(${channel}, '') from queued`);
}

/**
 * A mail sent or given up keeps only what support needs (address, subject, times, attempts, last
 * error): its bodies and headers carry reset and unsubscribe links, which must not outlive it.
 */
const cleared = { textBody: '', htmlBody: null, headers: {} };

interface OutboxRow extends Record<string, unknown> {
  id: number | string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  headers: Record<string, string> | string;
  created_at: Date | string;
  attempts: number;
}

export interface OutboxTiming {
  /** How often due mail is looked for without a wake-up (retries, missed notifications). */
  pollMs: number;
  /** Pause after the first failure; it doubles with each one, up to `maxRetryMs`. */
  firstRetryMs: number;
  maxRetryMs: number;
  /** How long a process may hold a mail it is sending before another may take it (a crashed sender). */
  leaseMs: number;
  /** After this long since it was queued, a mail that still fails is given up (failed_at). */
  giveUpAfterMs: number;
  /**
   * The longest one delivery may take, the wait for the server's answer to the message included; it
   * is then aborted. Well inside the lease, so no other process takes a mail still being sent.
   */
  sendLimitMs: number;
  /** How long `stop` lets the mail being sent finish before aborting it: inside the shutdown deadline. */
  stopWaitMs: number;
  /** How long mail sent or given up is kept for support before housekeeping deletes it. */
  keepFinishedMs: number;
}

export const defaultOutboxTiming: OutboxTiming = {
  pollMs: 5_000,
  firstRetryMs: 30_000,
  maxRetryMs: 30 * 60_000,
  leaseMs: 2 * 60_000,
  giveUpAfterMs: 3 * 24 * 60 * 60_000,
  sendLimitMs: 60_000,
  stopWaitMs: 10_000,
  keepFinishedMs: 30 * 24 * 60 * 60_000,
};

/** How long a transport gets to settle after its send was aborted, before it is left behind. */
const abortGraceMs = 1_000;

/**
 * The transport's own outcome, unless it still has not settled `abortGraceMs` after the abort: then
 * it is left behind as an unknown outcome, so one broken connection cannot stall the outbox.
 */
function settledAfterAbort(work: Promise<void>, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const abandoned = new Promise<never>((_, reject) => {
    onAbort = () => {
      timer = setTimeout(() => reject(new UncertainMailError('the mail transport did not stop when asked: the mail may have been delivered')), abortGraceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, abandoned]).finally(() => {
    signal.removeEventListener('abort', onAbort);
    clearTimeout(timer);
  });
}

interface OutboxLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Delivers what waits in the outbox, one mail at a time, in the order it was queued. Several
 * processes can run it: a mail is claimed with SKIP LOCKED and a lease, so only one sends it. A
 * mail is sent at least once; a repeat (a crash, or no answer from the server after it had the
 * whole message) carries the same Message-ID, which mail servers use to drop duplicates.
 */
export class MailOutbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;
  private stopped = false;
  /** The send in progress, which `stop` aborts once it has had `stopWaitMs` to finish. */
  private sending: AbortController | undefined;
  /** Set when a stop's wait is over: a send starting after it is aborted at once. */
  private cutOff: Error | undefined;

  constructor(
    private readonly database: Database,
    private readonly transport: MailTransport,
    private readonly log: OutboxLog,
    private readonly timing: OutboxTiming = defaultOutboxTiming,
  ) {}

  /** Listens for new mail and polls for retries; `stop` ends both. */
  async start(): Promise<void> {
    this.stopped = false;
    this.cutOff = undefined;
    // The embedded database has one process (its folder is locked), so a mail held at start was
    // held by a process that has ended: no delivery of it can still be under way, and it is sent
    // now, not when its lease runs out. That includes a mail held because its outcome was unknown
    // (the hold only keeps a second try from overlapping the first), and mail waiting for a retry:
    // a restart is a fair moment to try again.
    if (this.database.kind === 'pglite') {
      await this.database.db.execute(sql`update mail_outbox set due_at = now() where sent_at is null and failed_at is null and due_at > now()`);
    }
    await this.database.listen(channel, () => this.wake(), () => this.wake());
    this.timer = setInterval(() => this.wake(), this.timing.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops taking new mail and waits for the mail being sent, aborting it after `stopWaitMs`. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const wait = setTimeout(() => {
      this.cutOff = new Error('the shop stopped before the mail server answered');
      this.sending?.abort(this.cutOff);
    }, this.timing.stopWaitMs);
    await this.running?.catch(() => undefined);
    clearTimeout(wait);
    this.transport.close?.();
  }

  /**
   * What waits and what failed, for /metrics: mail not yet sent, of it the mail that has failed at
   * least once, the age of the oldest in seconds, and mail given up on in the last 24 hours.
   */
  async counts(): Promise<{ waiting: number; retrying: number; oldestWaitingSeconds: number; givenUpLastDay: number }> {
    const [row] = await queryRows<{ waiting: number; retrying: number; oldest: number | null; given_up: number }>(
      this.database.db,
      sql`select count(*) filter (where sent_at is null and failed_at is null)::int as waiting,
        count(*) filter (where sent_at is null and failed_at is null and attempts > 0)::int as retrying,
        extract(epoch from now() - min(created_at) filter (where sent_at is null and failed_at is null))::float8 as oldest,
        count(*) filter (where failed_at > now() - interval '1 day')::int as given_up
        from ${mailOutbox}`,
    );
    return { waiting: row?.waiting ?? 0, retrying: row?.retrying ?? 0, oldestWaitingSeconds: row?.oldest ?? 0, givenUpLastDay: row?.given_up ?? 0 };
  }

  /** Deletes mail sent or given up more than `keepFinishedMs` ago; mail still waiting is kept. */
  async purgeFinished(): Promise<void> {
    const cutOff = sql`now() - make_interval(secs => ${this.timing.keepFinishedMs / 1000})`;
    await this.database.db.delete(mailOutbox).where(or(lt(mailOutbox.sentAt, cutOff), lt(mailOutbox.failedAt, cutOff)));
  }

  /** Sends everything due now, after any pass already running; resolves with how many it delivered. */
  async deliverDue(): Promise<number> {
    while (this.running) await this.running.catch(() => 0);
    return this.pass();
  }

  /** A wake-up during a pass asks for one more pass after it, so no queued mail waits for the poll. */
  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.pass().catch((error: unknown) => this.log.warn({ err: error }, 'mail outbox could not be read'));
  }

  private pass(): Promise<number> {
    const run = this.drain().finally(() => {
      if (this.running === run) this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
    this.running = run;
    return run;
  }

  private async drain(): Promise<number> {
    await this.giveUpExpired();
    let delivered = 0;
    while (!this.stopped) {
      const row = await this.claim();
      if (!row) break;
      if (await this.deliver(row)) delivered += 1;
    }
    return delivered;
  }

  /**
   * Gives up due mail past its expiry: a reset link that no longer works is not worth sending. Mail
   * held by a sender is not due, so it is never given up while it is being sent.
   */
  private async giveUpExpired(): Promise<void> {
    const now = sql`now()`;
    const expired = await this.database.db
      .update(mailOutbox)
      .set({ ...cleared, failedAt: now, lastError: 'the mail expired before it could be sent' })
      .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt), lte(mailOutbox.dueAt, now), lte(mailOutbox.expiresAt, now)))
      .returning({ id: mailOutbox.id });
    if (expired.length) this.log.warn({ mails: expired.map((row) => row.id) }, 'mail given up: it expired before it could be sent');
  }

  /** Takes the oldest due mail and holds it for the lease, in one statement. */
  private async claim(): Promise<OutboxRow | undefined> {
    const [row] = await queryRows<OutboxRow>(this.database.db, sql`
      update mail_outbox set attempts = attempts + 1, due_at = now() + make_interval(secs => ${this.timing.leaseMs / 1000})
      where id = (
        select id from mail_outbox
        where sent_at is null and failed_at is null and due_at <= now() and (expires_at is null or expires_at > now())
        order by id limit 1 for update skip locked
      )
      returning id, to_address, subject, text_body, html_body, headers, created_at, attempts`);
    return row;
  }

  private async deliver(row: OutboxRow): Promise<boolean> {
    const id = Number(row.id);
    const createdAt = new Date(row.created_at);
    const headers = typeof row.headers === 'string' ? (JSON.parse(row.headers) as Record<string, string>) : row.headers;
    const mail = { id, createdAt, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body ?? undefined, headers };
    const sending = new AbortController();
    if (this.cutOff) sending.abort(this.cutOff);
    const limit = setTimeout(() => sending.abort(new Error(`the mail server did not finish within ${this.timing.sendLimitMs / 1000} s`)), this.timing.sendLimitMs);
    this.sending = sending;
    try {
      await settledAfterAbort(this.transport.deliver(mail, sending.signal), sending.signal);
    } catch (error) {
      await this.recordFailure(id, createdAt, row.attempts, error);
      return false;
    } finally {
      clearTimeout(limit);
      this.sending = undefined;
    }
    await this.database.db.update(mailOutbox).set({ ...cleared, sentAt: sql`now()`, lastError: null }).where(eq(mailOutbox.id, id));
    this.log.info({ mail: id, subject: row.subject }, 'mail delivered');
    return true;
  }

  private async recordFailure(id: number, createdAt: Date, attempts: number, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const giveUp = error instanceof PermanentMailError || Date.now() - createdAt.getTime() > this.timing.giveUpAfterMs;
    // The server may still be keeping a mail it had whole: held for a full lease, so no pass sends
    // it again while the first delivery may still complete.
    const uncertain = error instanceof UncertainMailError;
    const backoffMs = Math.min(this.timing.firstRetryMs * 2 ** Math.max(attempts - 1, 0), this.timing.maxRetryMs);
    const retryMs = uncertain ? Math.max(backoffMs, this.timing.leaseMs) : backoffMs;
    await this.database.db
      .update(mailOutbox)
      .set(giveUp ? { ...cleared, failedAt: sql`now()`, lastError: message } : { dueAt: sql`now() + make_interval(secs => ${retryMs / 1000})`, lastError: message })
      .where(eq(mailOutbox.id, id));
    if (giveUp) this.log.error({ mail: id, err: error }, 'mail given up: staff should contact the customer another way');
    else if (uncertain) this.log.warn({ mail: id, attempts, retryInMs: retryMs, error: message }, 'mail may have been delivered: it is sent again only after the lease');
    else this.log.warn({ mail: id, attempts, retryInMs: retryMs, error: message }, 'mail delivery failed: it will be retried');
  }
}
