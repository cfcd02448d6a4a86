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
