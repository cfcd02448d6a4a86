import type { FastifyInstance } from 'fastify';
import { addDays, instantOfNzWallTime, nzToday } from '../contracts/dates';
import type { AppServices } from './app';
import type { Database } from './db/client';
import { upkeepEmbedded } from './db/embedded-upkeep';
import { makeMissingVariants } from './modules/uploads/missing-variants';

const housekeepingEveryMs = 15 * 60 * 1000;
const unpaidSweepEveryMs = 10 * 60 * 1000;
/** Products change through the bus at once; the timer catches what it cannot see (a confirm, a lost notification). */
const waitlistSweepEveryMs = 60 * 1000;
const readyReminderEveryMs = 10 * 60 * 1000;
/** Season box runs are made within this long of their cut-off. */
const seasonBoxEveryMs = 60 * 1000;
/** As often as PostgreSQL's autovacuum looks (its naptime); the first look comes soon after start. */
const upkeepEveryMs = 60 * 1000;
const firstUpkeepAfterMs = 10 * 1000;
/** Upkeep that held the embedded connection longer than this is logged at info: requests waited for it. */
const noticeableUpkeepMs = 200;
const dayMs = 24 * 60 * 60 * 1000;
/** The alarm rings this long after an opening, so the clock has surely passed it. */
const openingGraceMs = 5;
/** After a change to products, the next opening is looked at this much later, once for the changes meanwhile. */
const openingsSettleMs = 500;

/** Deletes what has served its time: expired sessions, old rate-limit windows, mail finished long ago. */
export function housekeeping(services: AppServices): Promise<unknown> {
  return Promise.all([
    services.sessions.purgeExpired(),
    services.limiter.purgeExpired(24 * 60 * 60 * 1000),
    services.outbox.purgeFinished(),
    services.waitlist.purgeUnconfirmed(),
    services.readyReminders.optOutLinks.purgeExpired(),
    services.reviewInvites.optOutLinks.purgeExpired(),
    services.seasonBoxReminders.purgeExpired(),
  ]);
}

/**
 * What a server process does besides answering requests: housekeeping, the unpaid-order sweep and
 * mail delivery. `stop` ends the timers and waits for the work already running, so a shutdown
 * never cuts a mail or an order's cancel in half; the sweep ends after the order in hand and
 * leaves the rest to the next sweep, so the wait fits in the shutdown deadline.
 */
export class BackgroundWork {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();
  private openingAlarm: NodeJS.Timeout | undefined;
  private openingsLookPending = false;
  /** When the alarm set last is due (the shop's clock), and how many looks have started. */
  private openingAlarmAt = 0;
  private openingLooks = 0;
  private midnightAlarm: NodeJS.Timeout | undefined;

  /**
   * `firstSweepAfterMs`: the first unpaid-order sweep waits this long after start (tests start it at
   * once); `firstUpkeepAfterMs`, the first look at the tables. `embedded`: the embedded database,
   * which this process keeps vacuumed and analyzed.
   */
  constructor(
    private readonly app: FastifyInstance,
    private readonly timing: { firstSweepAfterMs: number; firstUpkeepAfterMs?: number } = { firstSweepAfterMs: 5_000 },
    private readonly embedded?: Database,
  ) {}

  async start(): Promise<void> {
    const { services, log } = this.app;
    // Products that changed while no process was running are purged from the shared cache.
    void services.sharedCacheChanges.start();
    this.every(housekeepingEveryMs, 'housekeeping', () => housekeeping(services));
    // Unpaid orders past the settings' timeout are cancelled and their stock returned. Every process
    // may sweep: each order is locked and re-checked, so it is cancelled once.
    const sweep = async () => {
      const cancelled = await services.orders.cancelOverdue(new Date(), this.stopping.signal);
      if (cancelled) log.info({ cancelled }, 'cancelled unpaid orders past their timeout');
      // Card refunds Stripe did not take when they were made (unreachable, refused) are tried again;
      // each carries its record's idempotency key, so two processes make one refund.
      const refunded = await services.orders.refunds.sendCardRefunds({}, this.stopping.signal);
      if (refunded) log.info({ refunded }, 'sent card refunds to Stripe');
    };
    this.every(unpaidSweepEveryMs, 'unpaid-order sweep', sweep);
    this.after(this.timing.firstSweepAfterMs, 'unpaid-order sweep', sweep);
    // Decision 0016: when a product can be bought again its waitlist is mailed. Every process may
    // sweep; one at a time does (an advisory lock), and each entry is used once.
    let waitlistSweep: Promise<unknown> | null = null;
    let sweepAgain = false;
    const notifyWaitlists = async (): Promise<void> => {
      if (waitlistSweep) {
        sweepAgain = true;
        return;
      }
      waitlistSweep = services.waitlist.notifyAvailable(this.stopping.signal);
      try {
        const queued = await waitlistSweep;
        if (queued) log.info({ queued }, 'mailed waitlists of products back on sale');
      } finally {
        waitlistSweep = null;
      }
      if (sweepAgain) {
        sweepAgain = false;
        await notifyWaitlists();
      }
    };
    this.every(waitlistSweepEveryMs, 'waitlist sweep', notifyWaitlists);
    services.bus.on('products', () => this.run('waitlist sweep', notifyWaitlists));
    this.after(0, 'waitlist sweep', notifyWaitlists);
    // At each pre-order opening, by the shop's clock, every process drops what it drew before
    // (pages saying "Opens ..."), and the waitlist sweep mails that product's subscribers.
    services.bus.on('products', () => this.lookAtOpeningsSoon());
    this.after(0, 'pre-order opening alarm', () => this.setOpeningAlarm());
    // On the first day an order's fruit should be ready (from 8 am NZ), its shopper hears so, once.
    const remind = async () => {
      const queued = await services.readyReminders.sendDue(this.stopping.signal);
      if (queued) log.info({ queued }, 'mailed shoppers whose mangoes should be ready today');
    };
    this.every(readyReminderEveryMs, 'ripeness reminders', remind);
    this.after(this.timing.firstSweepAfterMs, 'ripeness reminders', remind);
    // A few days after a delivered order's fruit should be ready, its shopper is asked how it was, once.
    const invite = async () => {
      const queued = await services.reviewInvites.sendDue(this.stopping.signal);
      if (queued) log.info({ queued }, 'asked shoppers how their mangoes were');
    };
    this.every(readyReminderEveryMs, 'review requests', invite);
    this.after(this.timing.firstSweepAfterMs, 'review requests', invite);
    // Season boxes (docs/season-box.md): at each delivery's cut-off its orders are made, once
    // whichever process sweeps; a few days before, each shopper is asked to skip or change it.
    const seasonBoxes = async () => {
      const made = await services.subscriptionRuns.sweep(this.stopping.signal);
      if (made) log.info({ made }, 'made the season boxes due at their cut-off');
      const reminded = await services.seasonBoxReminders.sendDue(this.stopping.signal);
      if (reminded) log.info({ reminded }, 'asked subscribers to skip or change their coming box');
    };
    this.every(seasonBoxEveryMs, 'season box runs', seasonBoxes);
    this.after(this.timing.firstSweepAfterMs, 'season box runs', seasonBoxes);
    // What the product page says of ripeness counts from today: each NZ midnight, pages drawn before it go.
    this.after(0, 'new day', () => this.setMidnightAlarm());
    // Decision 0012: pictures stored before variants existed get them now, without delaying start.
    this.after(0, 'image variants', async () => {
      const made = await makeMissingVariants(services.images, this.stopping.signal);
      if (!made) return;
      log.info({ made }, 'made the variants of uploaded images stored without them');
      await services.bus.publish('products');
    });
    // Decision 0040: the embedded database has no autovacuum; this process does its work.
    if (this.embedded) this.keepVacuumed(this.embedded);
    await services.outbox.start();
  }

  /** Looks at the embedded database's tables every minute, one look at a time: a long vacuum is not started again by the next. */
  private keepVacuumed(embedded: Database): void {
    let upkeeping = false;
    const upkeep = async () => {
      if (upkeeping) return;
      upkeeping = true;
      try {
        const steps = await upkeepEmbedded(embedded, this.stopping.signal);
        const ms = steps.reduce((sum, step) => sum + step.ms, 0);
        if (steps.length) this.app.log[ms > noticeableUpkeepMs ? 'info' : 'debug']({ steps, ms }, 'vacuumed and analyzed tables of the embedded database');
      } finally {
        upkeeping = false;
      }
    };
    this.every(upkeepEveryMs, 'database upkeep', upkeep);
    this.after(this.timing.firstUpkeepAfterMs ?? firstUpkeepAfterMs, 'database upkeep', upkeep);
  }

  /**
   * Products change in bursts (in a rush, with every order placed): the next opening is looked at
   * half a second after a change, once for all the changes meanwhile, not after every one.
   */
  private lookAtOpeningsSoon(): void {
    if (this.openingsLookPending) return;
    this.openingsLookPending = true;
    const timer = setTimeout(() => {
      this.openingsLookPending = false;
      this.run('pre-order opening alarm', () => this.setOpeningAlarm());
    }, openingsSettleMs);
    timer.unref();
  }

  /** The timer for the next pre-order opening, set again whenever products change and after it rings. */
  private async setOpeningAlarm(): Promise<void> {
    const { services } = this.app;
    const now = services.clock().getTime();
    const generation = ++this.openingLooks;
    const next = (await services.catalog.nextOpening(new Date(now)))?.getTime() ?? Number.POSITIVE_INFINITY;
    // A look that started earlier and answered later knows less: the newer one sets the alarm.
    if (generation !== this.openingLooks) return;
    // An alarm due but not rung yet (its grace, a busy moment) rings now rather than being lost.
    if (this.openingAlarm && this.openingAlarmAt <= services.clock().getTime()) this.openingReached();
    if (this.openingAlarm) clearTimeout(this.openingAlarm);
    this.openingAlarm = undefined;
    if (!Number.isFinite(next) || this.stopping.signal.aborted) return;
    // setTimeout holds at most about 24 days; a later opening is looked at again after a day.
    const wait = Math.min(next - now + openingGraceMs, dayMs);
    this.openingAlarmAt = now + wait;
    this.openingAlarm = setTimeout(() => {
      this.openingAlarm = undefined;
      if (wait < dayMs) this.openingReached();
      // At once, not after the look that follows changes: another opening may come moments later.
      this.run('pre-order opening alarm', () => this.setOpeningAlarm());
    }, wait);
    this.openingAlarm.unref();
  }

  /**
   * An opening's time has come: this process's copies go, and the shared cache's pages of the
   * product are purged (every process's alarm asks; the comparison purges them once).
   */
  private openingReached(): void {
    this.app.services.bus.invalidateHere('products');
    this.app.services.sharedCacheChanges.clockPassed();
  }

  /** Rings at the next NZ midnight (by the shop's clock): pages and products drawn on the day before are dropped. */
  private async setMidnightAlarm(): Promise<void> {
    const { services } = this.app;
    const now = services.clock();
    const wait = Math.max(Date.parse(instantOfNzWallTime(`${addDays(nzToday(now), 1)}T00:00`) ?? '') - now.getTime(), 0) + openingGraceMs;
    if (this.midnightAlarm) clearTimeout(this.midnightAlarm);
    if (this.stopping.signal.aborted || !Number.isFinite(wait)) return;
    this.midnightAlarm = setTimeout(() => {
      this.midnightAlarm = undefined;
      services.bus.invalidateHere('products');
      this.run('new day', () => this.setMidnightAlarm());
    }, Math.min(wait, dayMs + openingGraceMs));
    this.midnightAlarm.unref();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.openingAlarm) clearTimeout(this.openingAlarm);
    if (this.midnightAlarm) clearTimeout(this.midnightAlarm);
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all([...this.running, this.app.services.outbox.stop()]);
  }

  private every(ms: number, name: string, work: () => Promise<unknown>): void {
    const timer = setInterval(() => this.run(name, work), ms);
    timer.unref();
    this.timers.push(timer);
  }

  private after(ms: number, name: string, work: () => Promise<unknown>): void {
    const timer = setTimeout(() => this.run(name, work), ms);
    timer.unref();
    this.timers.push(timer);
  }

  private run(name: string, work: () => Promise<unknown>): void {
    if (this.stopping.signal.aborted) return;
    const running = work()
      .catch((error: unknown) => this.app.log.warn({ err: error }, `${name} failed`))
      .finally(() => this.running.delete(running));
    this.running.add(running);
  }
}
