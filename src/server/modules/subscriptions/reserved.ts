import { and, eq, gte, inArray, lte, or } from 'drizzle-orm';
import { addDays } from '../../../contracts/dates';
import type { DeliverySettings } from '../../../contracts/delivery';
import type { NzRegion } from '../../../contracts/order';
import type { Db, Tx } from '../../db/client';
import { products, subscriptionDeliveries, subscriptions } from '../../db/schema';
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
      // A pause without a resume day holds every box; with one, the boxes from that day come.
      if (sub.status === 'paused' && (!sub.pausedUntil || date < sub.pausedUntil)) continue;
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
