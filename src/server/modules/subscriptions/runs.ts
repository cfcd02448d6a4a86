import { and, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { addDays, formatDeadline, nzToday } from '../../../contracts/dates';
import { formatNzd } from '../../../contracts/money';
import type { DeliverySettings } from '../../../contracts/delivery';
import { orderTotals } from '../../../contracts/pricing';
import type { Product } from '../../../contracts/product';
import type { StoredSettings } from '../../../contracts/settings';
import { intervalDays, subscriberPriceCents, type SubscriptionRunResult, type SubscriptionStopState } from '../../../contracts/subscriptions';
import type { Db, Tx } from '../../db/client';
import { orderEvents, orderLines, orders, products, stockMovements, subscriptionDeliveries, subscriptionStop, subscriptions, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import type { StripeCheckout } from '../../lib/payments';
import { composeMail } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import { capacityOn } from '../delivery/calendar';
import { claimDispatchDay, type DeliveryService } from '../delivery/service';
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
  /** Card season boxes are charged on their saved card at each run. */
  stripe: StripeCheckout | undefined;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  offeredOrigins?: () => Promise<ReadonlyMap<number, Pick<Product, 'origin' | 'treatment'>>>;
}

/** What a run did with one subscription's delivery; a card box's order is then charged. */
type Outcome = 'ordered' | 'charge' | 'missed' | 'done';

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
      // The card is charged once the order is committed, never inside its transaction. Stripe out
      // of reach stops no other box: the sweep charges it later.
      if (outcome === 'charge') {
        await this.charge(box.subscriptionId, box.date).catch((error: unknown) => this.deps.log.warn({ err: error, subscription: box.subscriptionId, date: box.date }, 'season box charge left for the next sweep'));
      }
      if (outcome === 'ordered' || outcome === 'charge') {
        result.ordered += 1;
        stockChanged = true;
      } else if (outcome === 'missed') result.missed += 1;
      else result.alreadyDone += 1;
    }
    if (result.ordered || result.missed) this.deps.delivery.reserved.forget();
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
    // Paused until today: running again, its paused weeks gone for good.
    await this.deps.db
      .update(subscriptions)
      .set({ status: 'active', boxesFrom: sql`${subscriptions.pausedUntil}`, pausedUntil: null, updatedAt: sql`now()` })
      .where(and(eq(subscriptions.status, 'paused'), lte(subscriptions.pausedUntil, today)));
    // A season over is ended for good: moving its end later (next year's season) brings none back.
    await this.deps.db
      .update(subscriptions)
      .set({ status: 'ended', pausedUntil: null, updatedAt: sql`now()` })
      .where(and(inArray(subscriptions.status, ['active', 'paused', 'awaiting_card']), sql`${subscriptions.productId} in (select ${products.id} from ${products} where ${products.seasonEndsOn} < ${today})`));
    // Deliveries up to a week (the longest lead and a weekend) ahead can be past their cut-off.
    const planned = await plannedDeliveries(this.deps.db, delivery, addDays(today, -sweepBackDays), addDays(today, 7));
    const dates = [...new Set(planned.filter((box) => cutoffOf(delivery, box.region, box.date) <= now).map((box) => box.date))].sort();
    this.deps.delivery.reserved.forget();
    await this.chargeLeftOver(signal);
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
    // Staff may stop all while a run goes: each box looks again.
    const [stop] = await tx.select({ stoppedAt: subscriptionStop.stoppedAt }).from(subscriptionStop).for('share');
    if (stop?.stoppedAt) return 'done';
    // The subscription first, then its delivery: the order a shopper's skip or change locks them in.
    // Read under the lock: a skip, a change, a pause or a cancel may have come since the list was made.
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, box.subscriptionId)).for('update');
    await tx.insert(subscriptionDeliveries).values(key).onConflictDoNothing();
    const [row] = await tx.select().from(subscriptionDeliveries).where(where).for('update');
    if (!row || row.state) return 'done';
    const live = sub && (sub.status === 'active' || (sub.status === 'paused' && sub.pausedUntil !== null && sub.pausedUntil <= box.date));
    if (!sub || !live || (sub.boxesFrom && box.date < sub.boxesFrom)) return 'done';
    const [user] = await tx.select().from(users).where(eq(users.id, sub.userId));
    if (!user) return 'done';
    const productId = row.productId ?? sub.productId;
    const quantity = row.quantity ?? sub.quantity;
    const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('no key update');
    // The schedule's season is the subscription's own product's (a next-box change may be another).
    const [own] = productId === sub.productId ? [product] : await tx.select({ seasonEndsOn: products.seasonEndsOn }).from(products).where(eq(products.id, sub.productId));
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
    // The day's places were kept for the box, so it nearly always fits; a day whose capacity staff
    // lowered since is never packed past it: the box is missed instead, its stock put back.
    if (!(await claimDispatchDay(tx, dispatchDate, quantity, capacityOn(delivery, dispatchDate)))) {
      await tx.update(products).set({ stock: sql`${products.stock} + ${quantity}`, updatedAt: sql`now()` }).where(eq(products.id, productId));
      return miss('The delivery day is fully booked: we could not pack this box.');
    }
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
    return sub.paymentMethod === 'stripe' ? 'charge' : 'ordered';
  }

  /**
   * Charges a card box's order on the saved card, off-session, with a key per subscription and
   * date: a retry (the sweep after a crash) gets Stripe's first answer back. Paid, the order is
   * paid. Declined, the shopper is mailed a pay-now link valid until the packing cut-off; a second
   * box in a row unpaid pauses the season box, with a mail.
   */
  async charge(subscriptionId: number, date: string): Promise<'paid' | 'declined' | 'done'> {
    const { db } = this.deps;
    const where = and(eq(subscriptionDeliveries.subscriptionId, subscriptionId), eq(subscriptionDeliveries.deliveryDate, date));
    const [found] = await db
      .select({ delivery: subscriptionDeliveries, sub: subscriptions, order: orders })
      .from(subscriptionDeliveries)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionDeliveries.subscriptionId))
      .innerJoin(orders, eq(orders.id, subscriptionDeliveries.orderId))
      .where(where);
    if (!found || found.order.status !== 'pending_payment' || found.order.paymentMethod !== 'stripe') return 'done';
    const { sub, order } = found;
    const stripe = this.deps.stripe;
    let declined: string;
    if (!stripe || !sub.stripeCustomerId || !sub.stripePaymentMethodId) {
      declined = 'Card payments are not available at the moment';
    } else {
      const result = await stripe.chargeSavedCard({ customerId: sub.stripeCustomerId, paymentMethodId: sub.stripePaymentMethodId, amountCents: order.totalCents, orderNumber: order.number, idempotencyKey: `season-box-charge-${sub.id}-${date}` });
      if (result.outcome === 'paid') {
        // The payment first, then the status, then the mark: a crash between them leaves the box to
        // the sweep, whose charge (the same key) gets this payment back.
        await db.update(orders).set({ stripePaymentIntentId: result.paymentIntentId, updatedAt: sql`now()` }).where(eq(orders.id, order.id));
        const paid = await this.deps.orders.changeStatus(order.id, 'paid', { actorUserId: null, note: `Season box card charged (${result.paymentIntentId})`, onlyFrom: 'pending_payment' });
        await db.update(subscriptionDeliveries).set({ chargedAt: sql`now()`, updatedAt: sql`now()` }).where(where);
        if (!paid) {
          const [now] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
          // Paid already (another process had the same answer from Stripe): nothing to do.
          if (now?.status === 'cancelled') this.deps.log.error({ order: order.number, paymentIntent: result.paymentIntentId }, 'season box charged for an order cancelled meanwhile: refund it');
        }
        return 'paid';
      }
      declined = result.message;
    }
    // Told once: the delivery's charge is marked under its row, and only the first to mark it mails.
    const [marked] = await db
      .update(subscriptionDeliveries)
      .set({ chargedAt: sql`now()`, note: `Card declined: ${declined}`, updatedAt: sql`now()` })
      .where(and(where, isNull(subscriptionDeliveries.chargedAt)))
      .returning();
    if (!marked) return 'declined';
    const [user] = await db.select().from(users).where(eq(users.id, sub.userId));
    if (!user) return 'declined';
    const payUrl = await this.deps.orders.startCardPayment(order, user).catch((error: unknown) => {
      this.deps.log.warn({ err: error, order: order.number }, 'could not open a pay-now page for a declined season box');
      return null;
    });
    const settings = await this.deps.settings.stored();
    const delivery = await this.deps.delivery.settings();
    const payBy = packingCutoffOf(delivery, sub.shipRegion, date);
    const secondInARow = await this.previousUnpaid(sub.id, date);
    await db.transaction(async (tx) => {
      if (secondInARow) await tx.update(subscriptions).set({ status: 'paused', pausedUntil: null, updatedAt: sql`now()` }).where(and(eq(subscriptions.id, sub.id), eq(subscriptions.status, 'active')));
      await queueMail(tx, declinedMail({ to: user.email, firstName: user.firstName || user.username, date, orderNumber: order.number, totalCents: order.totalCents, reason: declined, payUrl, payBy, paused: secondInARow, siteName: settings.siteName, accountUrl: `${this.deps.publicUrl}/account#season-box` }));
    });
    return 'declined';
  }

  /** Whether the season box's previous box was a card box left unpaid (its charge declined, and never paid after). */
  private async previousUnpaid(subscriptionId: number, date: string): Promise<boolean> {
    const [previous] = await this.deps.db
      .select({ note: subscriptionDeliveries.note, status: orders.status, paid: sql<boolean>`exists (select 1 from ${orderEvents} where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.status} = 'paid')` })
      .from(subscriptionDeliveries)
      .innerJoin(orders, eq(orders.id, subscriptionDeliveries.orderId))
      .where(and(eq(subscriptionDeliveries.subscriptionId, subscriptionId), lt(subscriptionDeliveries.deliveryDate, date), eq(subscriptionDeliveries.state, 'ordered')))
      .orderBy(desc(subscriptionDeliveries.deliveryDate))
      .limit(1);
    return Boolean(previous && !previous.paid && previous.note?.startsWith('Card declined'));
  }

  /** Card boxes whose order was made but not charged (the process stopped in between): charged now. */
  private async chargeLeftOver(signal?: AbortSignal): Promise<void> {
    const left = await this.deps.db
      .select({ subscriptionId: subscriptionDeliveries.subscriptionId, date: subscriptionDeliveries.deliveryDate })
      .from(subscriptionDeliveries)
      .innerJoin(orders, eq(orders.id, subscriptionDeliveries.orderId))
      .where(and(eq(subscriptionDeliveries.state, 'ordered'), isNull(subscriptionDeliveries.chargedAt), eq(orders.paymentMethod, 'stripe'), eq(orders.status, 'pending_payment')))
      .limit(100);
    for (const box of left) {
      if (signal?.aborted) break;
      await this.charge(box.subscriptionId, box.date).catch((error: unknown) => this.deps.log.warn({ err: error, subscription: box.subscriptionId, date: box.date }, 'season box charge left for the next sweep'));
    }
  }
}

/** A card box declined: pay now (until the packing cut-off), or, the second in a row, the season box paused. */
export function declinedMail(mail: { to: string; firstName: string; date: string; orderNumber: string; totalCents: number; reason: string; payUrl: string | null; payBy: Date; paused: boolean; siteName: string; accountUrl: string }) {
  const pay = mail.payUrl
    ? [{ kind: 'button' as const, label: `Pay ${formatNzd(mail.totalCents)} now`, href: mail.payUrl }, '']
    : ['Sign in and open the order under My account to pay.', ''];
  return composeMail({
    to: mail.to,
    subject: mail.paused ? 'Your season box is paused: your card was declined again' : `Your card was declined for your box on ${dayWords(mail.date)}`,
    preview: `Pay by ${formatDeadline(mail.payBy)} and your box still comes.`,
    greeting: `Kia ora ${mail.firstName},`,
    parts: [
      `Your card was declined for your season box on ${dayWords(mail.date)} (order ${mail.orderNumber}). The reason: ${mail.reason.replace(/\.?$/, '.')}`,
      '',
      `Pay by ${formatDeadline(mail.payBy)} and the box still comes. Unpaid by then, it is skipped.`,
      '',
      ...pay,
      ...(mail.paused
        ? ['This is the second box in a row your card did not pay for, so we have paused your season box: no box comes after this one until you resume it under My account.', '']
        : []),
      { kind: 'link', label: 'See your season box', href: mail.accountUrl },
    ],
    siteName: mail.siteName,
  });
}

/** The e-mail for a box the run could not make: why, and when the next one comes. */
export function missedMail(mail: { to: string; firstName: string; date: string; productName: string; note: string; next: string | null; siteName: string; accountUrl: string }) {
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

