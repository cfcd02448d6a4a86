/**
 * Requests of one kind in progress (claim uploads, order placements), counted per account and in
 * all, so that no account, and no number of accounts together, can have more in flight at once
 * than these limits allow.
 */
export class RequestSlots {
  private readonly perAccount = new Map<number, number>();
  private total = 0;

  /** Without `perAccount`, only the total counts. */
  constructor(private readonly limits: { perAccount?: number; total: number }) {}

  /** Whether every slot is taken: asked before anything else about a request (who sent it) is looked up. */
  get full(): boolean {
    return this.total >= this.limits.total;
  }

  /** A slot for this account, with the function that gives it back; null when none is free. */
  take(accountId: number): (() => void) | null {
    const mine = this.perAccount.get(accountId) ?? 0;
    if (mine >= (this.limits.perAccount ?? Infinity) || this.total >= this.limits.total) return null;
    this.perAccount.set(accountId, mine + 1);
    this.total += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total -= 1;
      const left = (this.perAccount.get(accountId) ?? 1) - 1;
      if (left > 0) this.perAccount.set(accountId, left);
      else this.perAccount.delete(accountId);
    };
  }
}

/** What `PacedSlots` starts from, before placements have told it how fast they are answered. */
const firstLimit = 64;
/** Never fewer at once than this (or the ceiling): a few in progress together show whether more would go faster. */
const fewestAtOnce = 4;
/** How many of the latest answers the pace is measured over, and how many it needs first (the first answers of a burst come all at once, after a wait). */
const pacedOver = 64;
const pacedFrom = 16;

/**
 * Requests that all wait on one thing (order placements on the database): as many at once as can
 * be answered within `targetMs`, and never more than `total`. The pace is measured as the time
 * requests were in progress (any of them) per request answered, over the latest answers: n in
 * progress are answered in about n times that, whether the database takes them one after another
 * or together. The limit follows the database this process runs on: on the embedded one, whose
 * queries run one at a time, it is small; on a database server, large.
 */
export class PacedSlots {
  private inProgress = 0;
  /** When the time in progress was last counted. */
  private countedAt = 0;
  /** Time in progress since the last answer. */
  private sinceLastAnswer = 0;
  /** Time in progress before each of the latest answers; their mean is the pace. */
  private readonly paces: number[] = [];
  private pacesSum = 0;

  constructor(private readonly limits: { total: number; targetMs: number }) {}

  /** How many may be in progress now. */
  get limit(): number {
    const { total, targetMs } = this.limits;
    if (this.paces.length < pacedFrom) return Math.min(total, firstLimit);
    const msPerAnswer = this.pacesSum / this.paces.length;
    return Math.min(total, Math.max(fewestAtOnce, Math.floor(targetMs / Math.max(msPerAnswer, 0.1))));
  }

  get full(): boolean {
    return this.inProgress >= this.limit;
  }

  /** A slot, with the function that gives it back once the request is answered; null when none is free. */
  take(now: () => number = () => performance.now()): (() => void) | null {
    if (this.full) return null;
    this.count(now());
    this.inProgress += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.count(now());
      this.inProgress -= 1;
      this.paces.push(this.sinceLastAnswer);
      this.pacesSum += this.sinceLastAnswer;
      if (this.paces.length > pacedOver) this.pacesSum -= this.paces.shift()!;
      this.sinceLastAnswer = 0;
    };
  }

  private count(at: number): void {
    if (this.inProgress > 0) this.sinceLastAnswer += at - this.countedAt;
    this.countedAt = at;
  }
}
