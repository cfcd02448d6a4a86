import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { addDays, nzToday } from '../../../contracts/dates';
import type { DeliverySettings } from '../../../contracts/delivery';
import { orderTotals } from '../../../contracts/pricing';
import type { Product } from '../../../contracts/product';
import type { StoredSettings } from '../../../contracts/settings';
import { intervalDays, subscriberPriceCents, type SubscriptionRunResult, type SubscriptionStopState } from '../../../contracts/subscriptions';
import type { Db, Tx } from '../../db/client';
import { dispatchDays, orderEvents, orderLines, orders, products, stockMovements, subscriptionDeliveries, subscriptionStop, subscriptions, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { composeMail } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import type { DeliveryService } from '../delivery/service';
import { confirmationMail } from '../orders/mail';
import type { OrderService } from '../orders/service';
import { viewOf } from '../orders/view';
import type { SettingsService } from '../settings/service';
import { type PlannedDelivery, plannedDeliveries } from './reserved';
import { cutoffOf, dayWords, deliveryDatesOf, packingCutoffOf } from './schedule';

export interface RunDeps {
  db: Db;
  delivery: DeliveryService;
  settings: SettingsService;
  orders: OrderService;
  bus: CacheBus;
  clock: () => Date;
  publicUrl: string;
  offeredOrigins?: () => Promise<ReadonlyMap<number, Pick<Product, 'origin' | 'treatment'>>>;
}

/** What a run did with one subscription's delivery. */
type Outcome = 'ordered' | 'missed' | 'done';

/** How far back the sweep looks for runs not made (the shop was down at their cut-off). */
const sweepBackDays = 7;

/**
 * The runs: at each delivery's cut-off the shop makes that delivery's order for each subscription,
 * once. The delivery's row is the key (one per subscription and date): a run locks it, and a row
 * already decided is left as it is, so a second start, a second process, or a restart after a
 * crash makes nothing twice. Each subscription is its own transaction: a crash loses none made.
 */
export class SubscriptionRuns {
  private sweeping = false;

  constructor(private readonly deps: RunDeps) {}

  async stopState(): Promise<SubscriptionStopState> {
    const [row] = await this.deps.db.select().from(subscriptionStop);
    return { stopped: Boolean(row?.stoppedAt), since: row?.stoppedAt?.toISOString() ?? null };
  }

  /** Staff's stop all: no run makes an order until it is turned back on. */
  async setStopped(stopped: boolean, actor: { userId: number; requestId: string }): Promise<SubscriptionStopState> {
    await this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(subscriptionStop).for('update');
      const stoppedAt = stopped ? (before?.stoppedAt ?? new Date()) : null;
      await tx
        .insert(subscriptionStop)
        .values({ id: 1, stoppedAt, actorUserId: actor.userId })
        .onConflictDoUpdate({ target: subscriptionStop.id, set: { stoppedAt, actorUserId: actor.userId } });
      await recordAudit(tx, { actorUserId: actor.userId, action: stopped ? 'subscriptions.stop' : 'subscriptions.restart', entity: 'settings', entityId: 'subscriptions', before: { stoppedAt: before?.stoppedAt ?? null }, after: { stoppedAt }, requestId: actor.requestId });
    });
    return this.stopState();
  }

  /**
   * The run of one delivery date. `early` (staff's start) takes every subscription of the date; the
   * sweep only those whose cut-off has passed.
   */
  async run(deliveryDate: string, { early }: { early: boolean }, signal?: AbortSignal): Promise<SubscriptionRunResult> {
    const result: SubscriptionRunResult = { deliveryDate, ordered: 0, missed: 0, alreadyDone: 0, stopped: false };
    if ((await this.stopState()).stopped) return { ...result, stopped: true };
    const [settings, delivery] = await Promise.all([this.deps.settings.stored(), this.deps.delivery.settings()]);
    const offered = (await this.deps.offeredOrigins?.()) ?? new Map<number, Pick<Product, 'origin' | 'treatment'>>();
    const now = this.deps.clock();
    const [decided] = await this.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(subscriptionDeliveries)
      .where(and(eq(subscriptionDeliveries.deliveryDate, deliveryDate), inArray(subscriptionDeliveries.state, ['ordered', 'missed'])));
    result.alreadyDone = decided?.n ?? 0;
    // Oldest subscription first: where stock is short, the longest-standing boxes are filled.
    const due = (await plannedDeliveries(this.deps.db, delivery, deliveryDate, deliveryDate)).filter((box) => early || cutoffOf(delivery, box.region, box.date) <= now);
    let stockChanged = false;
    for (const box of due) {
      if (signal?.aborted) break;
      const outcome = await this.deps.db.transaction((tx) => this.runOne(tx, box, settings, delivery, offered));
      if (outcome === 'ordered') {
        result.ordered += 1;
        stockChanged = true;
      } else if (outcome === 'missed') result.missed += 1;
      else result.alreadyDone += 1;
    }
    if (stockChanged) await this.deps.bus.publish('products');
    return result;
  }

  /**
   * Runs every delivery whose cut-off has passed and whose boxes can still be packed (a week back
   * at most), and starts paused subscriptions again on their resume day. Every process may sweep:
   * each delivery is decided once under its row's lock.
   */
  async sweep(signal?: AbortSignal): Promise<number> {
    // One sweep at a time in a process: a long run is not started again by the next tick.
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      return await this.sweepNow(signal);
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepNow(signal?: AbortSignal): Promise<number> {
    const delivery = await this.deps.delivery.settings();
    const now = this.deps.clock();
    const today = nzToday(now);
    await this.deps.db
      .update(subscriptions)
      .set({ status: 'active', pausedUntil: null, updatedAt: sql`now()` })
      .where(and(eq(subscriptions.status, 'paused'), lte(subscriptions.pausedUntil, today)));
    // Deliveries up to a week (the longest lead and a weekend) ahead can be past their cut-off.
    const planned = await plannedDeliveries(this.deps.db, delivery, addDays(today, -sweepBackDays), addDays(today, 7));
    const dates = [...new Set(planned.filter((box) => cutoffOf(delivery, box.region, box.date) <= now).map((box) => box.date))].sort();
    let made = 0;
    for (const date of dates) {
      if (signal?.aborted) break;
      made += (await this.run(date, { early: false }, signal)).ordered;
    }
    return made;
  }

  private async runOne(tx: Tx, box: PlannedDelivery, settings: StoredSettings, delivery: DeliverySettings, offered: ReadonlyMap<number, Pick<Product, 'origin' | 'treatment'>>): Promise<Outcome> {
    const key = { subscriptionId: box.subscriptionId, deliveryDate: box.date };
    const where = and(eq(subscriptionDeliveries.subscriptionId, box.subscriptionId), eq(subscriptionDeliveries.deliveryDate, box.date));
    // The subscription first, then its delivery: the order a shopper's skip or change locks them in.
    // Read under the lock: a skip, a change, a pause or a cancel may have come since the list was made.
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, box.subscriptionId)).for('update');
    await tx.insert(subscriptionDeliveries).values(key).onConflictDoNothing();
    const [row] = await tx.select().from(subscriptionDeliveries).where(where).for('update');
    if (!row || row.state) return 'done';
    const live = sub && (sub.status === 'active' || (sub.status === 'paused' && sub.pausedUntil !== null && sub.pausedUntil <= box.date));
    if (!sub || !live) return 'done';
    const [user] = await tx.select().from(users).where(eq(users.id, sub.userId));
    if (!user) return 'done';
    const productId = row.productId ?? sub.productId;
    const quantity = row.quantity ?? sub.quantity;
    const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('no key update');
    const [own] = await tx.select({ seasonEndsOn: products.seasonEndsOn }).from(products).where(eq(products.id, sub.productId));
    const now = this.deps.clock();
    const miss = async (note: string) => {
      await tx.update(subscriptionDeliveries).set({ state: 'missed', note, updatedAt: sql`now()` }).where(where);
      const next = deliveryDatesOf({ firstDeliveryDate: sub.firstDeliveryDate, every: sub.every, seasonEndsOn: own?.seasonEndsOn ?? null }, addDays(box.date, 1), addDays(box.date, intervalDays[sub.every]))[0] ?? null;
      await queueMail(tx, missedMail({ to: user.email, firstName: user.firstName || user.username, date: box.date, productName: product?.name ?? 'your mangoes', note, next, siteName: settings.siteName, accountUrl: `${this.deps.publicUrl}/account#season-box` }));
      return 'missed' as const;
    };
    if (now >= packingCutoffOf(delivery, sub.shipRegion, box.date)) return miss('Too late to pack: we could not make this box in time.');
    if (!product || product.isHidden || product.archivedAt || product.isPreOrder) return miss(`${product?.name ?? 'This product'} is not available this time.`);
    // Claimed as any order claims, never past the stock: short, the box is missed this time.
    const [taken] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: sql`now()` })
      .where(and(eq(products.id, productId), sql`${products.stock} >= ${quantity}`))
      .returning({ stock: products.stock });
    if (!taken) return miss('Not enough boxes this time: the harvest was short.');
    const dispatchDate = box.dispatchDate;
    // The day's places were kept for the box: it is booked whatever other orders took meanwhile.
    await tx.insert(dispatchDays).values({ date: dispatchDate, bookedBoxes: 0 }).onConflictDoNothing();
    await tx.update(dispatchDays).set({ bookedBoxes: sql`${dispatchDays.bookedBoxes} + ${quantity}` }).where(eq(dispatchDays.date, dispatchDate));
    const unitPriceCents = subscriberPriceCents(product.priceCents, product.subscriberDiscountPercent);
    const totals = orderTotals([{ unitPriceCents, quantity }], settings.shippingCents, 0, sub.rural ? delivery.ruralSurchargeCents : 0);
    const [order] = await tx
      .insert(orders)
      .values({
        userId: sub.userId,
        status: 'pending_payment',
        paymentMethod: sub.paymentMethod,
        subtotalCents: totals.subtotalCents,
        shippingCents: totals.shippingCents,
        discountCents: 0,
        totalCents: totals.totalCents,
        gstCents: totals.gstCents,
        shipName: sub.shipName,
        shipPhone: sub.shipPhone,
        shipStreet: sub.shipStreet,
        shipSuburb: sub.shipSuburb,
        shipCity: sub.shipCity,
        shipPostcode: sub.shipPostcode,
        shipRegion: sub.shipRegion,
        deliveryInstructions: sub.deliveryInstructions,
        rural: sub.rural,
        ruralSurchargeCents: totals.ruralSurchargeCents,
        deliveryDate: box.date,
        dispatchDate,
        deliveryBoxes: quantity,
        // ':' is outside a checkout key's pattern: no shopper's key can be this one, and the
        // unique key on (user, key) is a second guard of "once per subscription and date".
        idempotencyKey: `season-box:${sub.id}:${box.date}`,
        payBy: packingCutoffOf(delivery, sub.shipRegion, box.date),
      })
      .returning();
    const line = {
      orderId: order!.id,
      productId,
      productName: product.name,
      unitPriceCents,
      quantity,
      isPreOrder: false,
      expectedAvailabilityDate: null,
      originLabel: offered.get(productId)?.origin.countries.length ? offered.get(productId)!.origin.label : null,
      treatmentLabel: offered.get(productId)?.treatment.kinds.length ? offered.get(productId)!.treatment.label : null,
    };
    const event = { orderId: order!.id, status: 'pending_payment' as const, note: `Season box for ${dayWords(box.date)}`, actorUserId: null };
    await tx.insert(orderLines).values(line);
    await tx.insert(orderEvents).values(event);
    await tx.insert(stockMovements).values({ productId, change: -quantity, reason: 'order', orderId: order!.id, actorUserId: null, note: 'Season box' });
    await tx.update(subscriptionDeliveries).set({ state: 'ordered', orderId: order!.id, note: null, updatedAt: sql`now()` }).where(where);
    const view = viewOf(order!, [{ ...line, id: 0, allocatedAt: null, shipmentId: null, readyFrom: null, readyUntil: null, recalledBoxes: 0 }], [{ ...event, id: 0, createdAt: order!.createdAt }], settings, false);
    await queueMail(tx, confirmationMail(this.deps.orders.mailContext(user, view, settings)));
    return 'ordered';
  }
}

/** The e-mail for a box the run could not make: why, and when the next one comes. */
function missedMail(mail: { to: string; firstName: string; date: string; productName: string; note: string; next: string | null; siteName: string; accountUrl: string }) {
  return composeMail({
    to: mail.to,
    subject: `No season box on ${dayWords(mail.date)}`,
    preview: mail.next ? `Your next box comes on ${dayWords(mail.next)}.` : 'Sorry: we could not make this box.',
    greeting: `Kia ora ${mail.firstName},`,
    parts: [
      `Sorry: we could not make your season box of ${mail.productName} for ${dayWords(mail.date)}. ${mail.note} Nothing is charged for it.`,
      '',
      ...(mail.next ? [{ kind: 'callout' as const, text: `Your next box comes on ${dayWords(mail.next)}.` }] : []),
      { kind: 'button', label: 'See your season box', href: mail.accountUrl },
    ],
    siteName: mail.siteName,
  });
}

