import { and, eq, gte, inArray, lte, or } from 'drizzle-orm';
import { addDays, nzToday } from '../../../contracts/dates';
import type { DeliverySettings } from '../../../contracts/delivery';
import type { NzRegion } from '../../../contracts/order';
import type { Db, Tx } from '../../db/client';
import { products, subscriptionDeliveries, subscriptions } from '../../db/schema';
import { whyNot } from '../delivery/calendar';
import { deliveryDatesOf, dispatchDayOf } from './schedule';

/** A box a subscription will take, not yet decided (not run, skipped or missed). */
export interface PlannedDelivery {
  subscriptionId: number;
  userId: number;
  date: string;
  dispatchDate: string;
  region: NzRegion;
  productId: number;
  quantity: number;
  /** The subscription's own product and quantity differ for this box (a next-box change). */
  changed: boolean;
  createdAt: Date;
}

/**
 * The boxes active subscriptions (and paused ones, from their resume day) will take on each
 * delivery date from `from` to `to`, oldest subscription first: the forecast, the run's list and
 * the capacity other shoppers cannot book. A delivery decided (ordered, skipped, missed) is not among them.
 */
export async function plannedDeliveries(db: Db | Tx, settings: DeliverySettings, from: string, to: string, only?: { subscriptionId?: number; date?: string }): Promise<PlannedDelivery[]> {
  const live = or(eq(subscriptions.status, 'active'), eq(subscriptions.status, 'paused'));
  const subs = await db
    .select({
      id: subscriptions.id,
      userId: subscriptions.userId,
      productId: subscriptions.productId,
      quantity: subscriptions.quantity,
      every: subscriptions.every,
      firstDeliveryDate: subscriptions.firstDeliveryDate,
      status: subscriptions.status,
      pausedUntil: subscriptions.pausedUntil,
      boxesFrom: subscriptions.boxesFrom,
      region: subscriptions.shipRegion,
      createdAt: subscriptions.createdAt,
      seasonEndsOn: products.seasonEndsOn,
    })
    .from(subscriptions)
    .innerJoin(products, eq(products.id, subscriptions.productId))
    .where(and(live, only?.subscriptionId ? eq(subscriptions.id, only.subscriptionId) : undefined, lte(subscriptions.firstDeliveryDate, to)))
    .orderBy(subscriptions.createdAt, subscriptions.id);
  if (!subs.length) return [];
  const rows = await db
    .select()
    .from(subscriptionDeliveries)
    .where(
      and(
        inArray(
          subscriptionDeliveries.subscriptionId,
          subs.map((sub) => sub.id),
        ),
        gte(subscriptionDeliveries.deliveryDate, from),
        lte(subscriptionDeliveries.deliveryDate, to),
      ),
    );
  const decided = new Map(rows.map((row) => [`${row.subscriptionId}:${row.deliveryDate}`, row]));
  const planned: PlannedDelivery[] = [];
  for (const sub of subs) {
    const dates = only?.date ? deliveryDatesOf(sub, only.date, only.date) : deliveryDatesOf(sub, from, to);
    for (const date of dates) {
      // Weeks before it started, or started again, bring no box.
      if (sub.boxesFrom && date < sub.boxesFrom) continue;
      // A pause without a resume day holds every box; with one, the boxes from that day come.
      if (sub.status === 'paused' && (!sub.pausedUntil || date < sub.pausedUntil)) continue;
      // A day closed since (a holiday, a closed date, a weekday no longer delivered) brings none either.
      if (noDeliveryOn(settings, sub.region, date) !== null) continue;
      const row = decided.get(`${sub.id}:${date}`);
      if (row?.state) continue;
      const productId = row?.productId ?? sub.productId;
      const quantity = row?.quantity ?? sub.quantity;
      planned.push({
        subscriptionId: sub.id,
        userId: sub.userId,
        date,
        dispatchDate: dispatchDayOf(settings, sub.region, date),
        region: sub.region,
        productId,
        quantity,
        changed: productId !== sub.productId || quantity !== sub.quantity,
        createdAt: sub.createdAt,
      });
    }
  }
  return planned;
}

/** Why `region` has no delivery on `date` now (closed, a holiday, not one of its days), or null when it has. */
export function noDeliveryOn(settings: DeliverySettings, region: NzRegion, date: string): string | null {
  const reason = whyNot({ settings, region, booked: new Map(), boxes: 0 }, date, dispatchDayOf(settings, region, date));
  if (reason === undefined) return `we no longer deliver to ${region} on that weekday`;
  return reason;
}

/** The boxes subscriptions will take per dispatch day from `from` to `to` (dispatch days). */
export async function reservedBoxes(db: Db | Tx, settings: DeliverySettings, from: string, to: string): Promise<Map<string, number>> {
  // A dispatch day's deliveries are up to five days (the longest lead) after it.
  const planned = await plannedDeliveries(db, settings, from, addDays(to, 6));
  const reserved = new Map<string, number>();
  for (const box of planned) {
    if (box.dispatchDate < from || box.dispatchDate > to) continue;
    reserved.set(box.dispatchDate, (reserved.get(box.dispatchDate) ?? 0) + box.quantity);
  }
  return reserved;
}

/** How long a process trusts the boxes it worked out: other processes' changes show within this. */
const reservedTrustMs = 5_000;

/**
 * The boxes season boxes will take per dispatch day, worked out once for the delivery horizon and
 * kept a few seconds: checkout asks for delivery dates on every visit, and in a rush every shopper
 * at once. This process forgets it at each change of its own; another's shows within seconds (a run
 * then never packs a day past its capacity: a box that does not fit is missed, decision 0050).
 * Requests that ask at once share one computation.
 */
export class ReservedBoxes {
  private cached: { from: string; settings: DeliverySettings; at: number; boxes: Promise<Map<string, number>> } | null = null;
  private refreshing = false;

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
    private readonly reachDays: number,
  ) {}

  /**
   * Per dispatch day, from yesterday to beyond the delivery horizon. A count older than a few
   * seconds is still answered while a new one is worked out, so no request waits for it.
   */
  around(settings: DeliverySettings): Promise<Map<string, number>> {
    const from = addDays(nzToday(this.clock()), -1);
    const kept = this.cached;
    if (kept && kept.from === from && kept.settings === settings) {
      if (Date.now() - kept.at >= reservedTrustMs && !this.refreshing) this.refresh(from, settings);
      return kept.boxes;
    }
    return this.work(from, settings);
  }

  /** A season box changed in this process: the next ask works it out again. */
  forget(): void {
    this.cached = null;
  }

  private work(from: string, settings: DeliverySettings): Promise<Map<string, number>> {
    const boxes = reservedBoxes(this.db, settings, from, addDays(from, this.reachDays));
    this.cached = { from, settings, at: Date.now(), boxes };
    // A failed computation is not kept.
    boxes.catch(() => {
      if (this.cached?.boxes === boxes) this.cached = null;
    });
    return boxes;
  }

  private refresh(from: string, settings: DeliverySettings): void {
    this.refreshing = true;
    const base = this.cached;
    const boxes = reservedBoxes(this.db, settings, from, addDays(from, this.reachDays));
    boxes
      .then(
        (fresh) => {
          // Kept only if nothing came meanwhile (a change of this process's own, a new day).
          if (this.cached === base) this.cached = { from, settings, at: Date.now(), boxes: Promise.resolve(fresh) };
        },
        () => undefined,
      )
      .finally(() => {
        this.refreshing = false;
      });
  }
}
