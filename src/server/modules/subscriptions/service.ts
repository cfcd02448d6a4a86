import { and, asc, count, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { addDays, nzToday } from '../../../contracts/dates';
import { weekdayOf } from '../../../contracts/days';
import type { DeliverySettings } from '../../../contracts/delivery';
import { formatNzd } from '../../../contracts/money';
import type { CheckoutPaymentMethod } from '../../../contracts/order';
import type { StoredSettings } from '../../../contracts/settings';
import {
  comingDeliveriesShown,
  intervalDays,
  intervalLabels,
  type SeasonBoxDelivery,
  type SubscribeInput,
  type SubscriptionChange,
  subscriberPriceCents,
  type SubscriptionView,
} from '../../../contracts/subscriptions';
import { isRuralAddress } from '../../../contracts/checkout';
import type { Db, Tx } from '../../db/client';
import { orders, products, subscriptionDeliveries, subscriptions, users } from '../../db/schema';
import { BadRequest, Conflict, fieldError, NotFound } from '../../lib/errors';
import { composeMail } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import type { UserRow } from '../auth/user-view';
import { whyNot } from '../delivery/calendar';
import { bookedBetween, capacityForOrders, type DeliveryService, horizonDays } from '../delivery/service';
import { hasBankAccount } from '../settings/bank-account';
import type { SettingsService } from '../settings/service';
import type { StripeCheckout } from '../../lib/payments';
import { noDeliveryOn } from './reserved';
import { cutoffOf, dayWords, deliversOn, deliveryDatesOf, dispatchDayOf, lastDeliveryOf } from './schedule';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
type DeliveryRow = typeof subscriptionDeliveries.$inferSelect;
type ProductRow = Pick<typeof products.$inferSelect, 'id' | 'name' | 'imageUrl' | 'priceCents' | 'subscriberDiscountPercent' | 'seasonEndsOn' | 'subscribable' | 'isHidden' | 'isPreOrder' | 'archivedAt'>;

/** A shopper may hold this many live season boxes at once. */
export const liveSubscriptionsPerShopper = 5;

export interface SubscriptionDeps {
  db: Db;
  delivery: DeliveryService;
  settings: SettingsService;
  clock: () => Date;
  publicUrl: string;
  /** Card season boxes save the card with Stripe; without it they are not offered. */
  stripe: StripeCheckout | undefined;
  log: { warn(details: object, message: string): void };
}

const productColumns = {
  id: products.id,
  name: products.name,
  imageUrl: products.imageUrl,
  priceCents: products.priceCents,
  subscriberDiscountPercent: products.subscriberDiscountPercent,
  seasonEndsOn: products.seasonEndsOn,
  subscribable: products.subscribable,
  isHidden: products.isHidden,
  isPreOrder: products.isPreOrder,
  archivedAt: products.archivedAt,
};

/** The shopper's side of season boxes: subscribe, see the coming boxes, skip, change, pause, cancel. */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionDeps) {}

  async subscribe(user: UserRow, input: SubscribeInput & { shipping: { region: SubscriptionRow['shipRegion'] } }): Promise<SubscriptionView> {
    const { db } = this.deps;
    const [settings, delivery] = await Promise.all([this.deps.settings.stored(), this.deps.delivery.settings()]);
    if (input.paymentMethod === 'stripe' && !this.deps.stripe) {
      throw fieldError('paymentMethod', 'Card payment is not available at the moment. Please choose bank transfer.');
    }
    if (input.paymentMethod === 'bank_transfer' && !hasBankAccount(settings)) {
      throw fieldError('paymentMethod', 'Bank transfer is not available at the moment. Please pay by card.');
    }
    const shipping = input.shipping as SubscriptionView['shipping'] & { rural?: boolean; saveToProfile?: boolean };
    const now = this.deps.clock();
    const row = await db.transaction(async (tx) => {
      // One shopper's subscribes queue on their own live subscriptions: the limit is counted under the lock.
      await tx.execute(sql`select pg_advisory_xact_lock(${subscribeLockKey}, ${user.id})`);
      const [live] = await tx
        .select({ n: count() })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, ['awaiting_card', 'active', 'paused'])));
      if ((live?.n ?? 0) >= liveSubscriptionsPerShopper) {
        throw new Conflict(`You already have ${liveSubscriptionsPerShopper} season boxes. Change or cancel one under My account first.`);
      }
      const product = await this.subscribableProduct(tx, input.productId);
      if (product.seasonEndsOn && input.firstDeliveryDate > product.seasonEndsOn) {
        throw fieldError('firstDeliveryDate', `${product.name}'s season ends on ${dayWords(product.seasonEndsOn)}. Please choose an earlier first delivery.`);
      }
      refuseDate(delivery, shipping.region, input.firstDeliveryDate, now);
      await refuseFullDay(tx, delivery, shipping.region, input.firstDeliveryDate, input.quantity);
      const [created] = await tx
        .insert(subscriptions)
        .values({
          userId: user.id,
          productId: product.id,
          quantity: input.quantity,
          every: input.every,
          firstDeliveryDate: input.firstDeliveryDate,
          paymentMethod: input.paymentMethod,
          shipName: shipping.name,
          shipPhone: shipping.phone,
          shipStreet: shipping.street,
          shipSuburb: shipping.suburb ?? '',
          shipCity: shipping.city,
          shipPostcode: shipping.postcode,
          shipRegion: shipping.region,
          deliveryInstructions: shipping.deliveryInstructions ?? '',
          rural: isRuralAddress({ rural: shipping.rural, street: shipping.street, suburb: shipping.suburb, city: shipping.city }),
          toldUnitPriceCents: subscriberPriceCents(product.priceCents, product.subscriberDiscountPercent),
          // By card, no box comes until the card is saved with Stripe.
          status: input.paymentMethod === 'stripe' ? 'awaiting_card' : 'active',
        })
        .returning();
      if (created!.status === 'active') await this.mailWelcome(tx, created!, user, settings, delivery, now);
      return created!;
    });
    this.changed();
    if (row.status !== 'awaiting_card') return this.view(row);
    // Stripe is asked once the subscription is committed: its page saves the card for the runs.
    const cardSetupUrl = await this.startCardSetup(row, user).catch((error: unknown) => {
      this.deps.log.warn({ err: error, subscription: row.id }, 'could not start saving the card with Stripe');
      return null;
    });
    return { ...(await this.view(row)), cardSetupUrl };
  }

  /** POST /api/subscriptions/:id/card: Stripe's page to save the card again (the first was closed or lost). */
  async cardSetupFor(user: UserRow, id: number): Promise<{ cardSetupUrl: string }> {
    const sub = await this.own(this.deps.db, user, id);
    if (sub.status !== 'awaiting_card') throw new Conflict('The card for this season box is saved already.');
    return { cardSetupUrl: await this.startCardSetup(sub, user) };
  }

  /**
   * A setup session completed (Stripe's webhook, or the shopper back from Stripe's page): the card
   * is read back from Stripe, never from the browser, and the season box starts. Again is fine.
   */
  async cardSaved(sessionId: string, reference?: string | null): Promise<'saved' | 'already' | 'unknown' | 'not_complete'> {
    const stripe = this.deps.stripe;
    if (!stripe) return 'unknown';
    // The session last opened for it, or an earlier one the shopper completed after opening another:
    // either way the card read back from Stripe must be the season box's own customer's.
    const referenced = /^season-box-(\d{1,9})$/.exec(reference ?? '')?.[1];
    const [sub] = await this.deps.db
      .select()
      .from(subscriptions)
      .where(referenced ? eq(subscriptions.id, Number(referenced)) : eq(subscriptions.cardSetupSessionId, sessionId));
    if (!sub) return 'unknown';
    if (sub.status !== 'awaiting_card') return 'already';
    const card = await stripe.savedCardOf(sessionId);
    if (!card || card.customerId !== sub.stripeCustomerId) return 'not_complete';
    const [settings, delivery] = await Promise.all([this.deps.settings.stored(), this.deps.delivery.settings()]);
    return this.deps.db.transaction(async (tx) => {
      const [started] = await tx
        .update(subscriptions)
        .set({ status: 'active', stripePaymentMethodId: card.paymentMethodId, boxesFrom: firstOpenDate(sub, delivery, this.deps.clock()), updatedAt: sql`now()` })
        .where(and(eq(subscriptions.id, sub.id), eq(subscriptions.status, 'awaiting_card')))
        .returning();
      if (!started) return 'already' as const;
      const [user] = await tx.select().from(users).where(eq(users.id, started.userId));
      if (user) await this.mailWelcome(tx, started, user, settings, delivery, this.deps.clock());
      return 'saved' as const;
    }).then((outcome) => {
      this.changed();
      return outcome;
    });
  }

  private async startCardSetup(sub: SubscriptionRow, user: UserRow): Promise<string> {
    const stripe = this.deps.stripe;
    if (!stripe) throw new Conflict('Card payment is not available at the moment.');
    const customerId = sub.stripeCustomerId ?? (await stripe.createCustomer({ email: user.email, name: sub.shipName, idempotencyKey: `season-box-customer-${sub.id}` }));
    const attempt = Date.now();
    const session = await stripe.createSetupSession({
      customerId,
      reference: `season-box-${sub.id}`,
      successUrl: `${this.deps.publicUrl}/account?season-box-card=${sub.id}#season-box`,
      cancelUrl: `${this.deps.publicUrl}/account#season-box`,
      idempotencyKey: `season-box-setup-${sub.id}-${attempt}`,
    });
    await this.deps.db.update(subscriptions).set({ stripeCustomerId: customerId, cardSetupSessionId: session.id, updatedAt: sql`now()` }).where(and(eq(subscriptions.id, sub.id), eq(subscriptions.status, 'awaiting_card')));
    return session.url;
  }

  private async mailWelcome(tx: Tx, sub: SubscriptionRow, user: Pick<UserRow, 'email' | 'firstName' | 'username'>, settings: StoredSettings, delivery: DeliverySettings, now: Date): Promise<void> {
    const view = await this.viewIn(tx, sub, settings, delivery, now);
    await queueMail(tx, welcomeMail({ to: user.email, firstName: user.firstName || user.username, view, siteName: settings.siteName, accountUrl: `${this.deps.publicUrl}/account#season-box` }));
  }

  /** The shopper's season boxes, and how a new one can be paid now. */
  async listFor(user: UserRow): Promise<{ subscriptions: SubscriptionView[]; paymentMethods: CheckoutPaymentMethod[] }> {
    const settings = await this.deps.settings.stored();
    const paymentMethods: CheckoutPaymentMethod[] = [];
    if (hasBankAccount(settings)) paymentMethods.push('bank_transfer');
    if (this.deps.stripe) paymentMethods.push('stripe');
    return { subscriptions: await this.viewsFor(user), paymentMethods };
  }

  private async viewsFor(user: UserRow): Promise<SubscriptionView[]> {
    const waiting = await this.deps.db
      .select({ session: subscriptions.cardSetupSessionId })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.status, 'awaiting_card')));
    // Back from Stripe's page before its webhook: a card saved there is read from Stripe now.
    for (const { session } of waiting) if (session) await this.cardSaved(session).catch(() => 'unknown');
    const rows = await this.deps.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, user.id))
      .orderBy(sql`${subscriptions.status} in ('cancelled', 'ended')`, asc(subscriptions.id));
    return Promise.all(rows.map((row) => this.view(row)));
  }

  async getFor(user: UserRow, id: number): Promise<SubscriptionView> {
    let row = await this.own(this.deps.db, user, id);
    // Back from Stripe's page before its webhook: the saved card is read from Stripe now.
    if (row.status === 'awaiting_card' && row.cardSetupSessionId && (await this.cardSaved(row.cardSetupSessionId).catch(() => 'unknown')) === 'saved') row = await this.own(this.deps.db, user, id);
    return this.view(row);
  }

  /** The product or quantity, for the next box still open, or for every box from now on. */
  async change(user: UserRow, id: number, input: SubscriptionChange): Promise<SubscriptionView> {
    const delivery = await this.deps.delivery.settings();
    const now = this.deps.clock();
    const row = await this.deps.db.transaction(async (tx) => {
      const sub = await this.own(tx, user, id, true);
      refuseEnded(sub);
      const product = input.productId !== undefined && input.productId !== sub.productId ? await this.subscribableProduct(tx, input.productId) : null;
      const productId = product?.id ?? sub.productId;
      const quantity = input.quantity ?? sub.quantity;
      const next = await this.nextOpen(tx, sub, delivery, now);
      if (input.scope === 'next') {
        if (!next) throw new Conflict('No coming box can be changed now: the next one is past its cut-off.');
        if (quantity > (next.row?.quantity ?? sub.quantity)) await refuseFullDay(tx, delivery, sub.shipRegion, next.date, quantity - (next.row?.quantity ?? sub.quantity));
        const same = productId === sub.productId && quantity === sub.quantity;
        await tx
          .insert(subscriptionDeliveries)
          .values({ subscriptionId: sub.id, deliveryDate: next.date, productId: same ? null : productId, quantity: same ? null : quantity })
          .onConflictDoUpdate({ target: [subscriptionDeliveries.subscriptionId, subscriptionDeliveries.deliveryDate], set: { productId: same ? null : productId, quantity: same ? null : quantity, updatedAt: sql`now()` } });
        return sub;
      }
      if (next && quantity > sub.quantity) await refuseFullDay(tx, delivery, sub.shipRegion, next.date, quantity - sub.quantity);
      const told = product ? { toldUnitPriceCents: subscriberPriceCents(product.priceCents, product.subscriberDiscountPercent) } : {};
      const [changed] = await tx.update(subscriptions).set({ productId, quantity, ...told, updatedAt: sql`now()` }).where(eq(subscriptions.id, sub.id)).returning();
      // Every box from now on: a change made for one open box alone gives way to this one.
      await tx
        .update(subscriptionDeliveries)
        .set({ productId: null, quantity: null, updatedAt: sql`now()` })
        .where(and(eq(subscriptionDeliveries.subscriptionId, sub.id), isNull(subscriptionDeliveries.state), gte(subscriptionDeliveries.deliveryDate, nzToday(now))));
      return changed!;
    });
    this.changed();
    return this.view(row);
  }

  async skip(user: UserRow, id: number, date: string): Promise<SubscriptionView> {
    const delivery = await this.deps.delivery.settings();
    const row = await this.deps.db.transaction(async (tx) => this.setSkipped(tx, delivery, await this.own(tx, user, id, true), date, true));
    this.changed();
    return this.view(row);
  }

  async unskip(user: UserRow, id: number, date: string): Promise<SubscriptionView> {
    const delivery = await this.deps.delivery.settings();
    const row = await this.deps.db.transaction(async (tx) => this.setSkipped(tx, delivery, await this.own(tx, user, id, true), date, false));
    this.changed();
    return this.view(row);
  }

  /** A one-click link's skip (or its undo): the link names the subscription and the date, no sign-in. */
  async skipFromMail(subscriptionId: number, date: string, skipped: boolean): Promise<{ ok: true; view: SubscriptionView } | { ok: false; message: string }> {
    try {
      const delivery = await this.deps.delivery.settings();
      const row = await this.deps.db.transaction(async (tx) => {
        const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update');
        if (!sub) throw new NotFound('This season box no longer exists.');
        return this.setSkipped(tx, delivery, sub, date, skipped);
      });
      this.changed();
      return { ok: true, view: await this.view(row) };
    } catch (error) {
      if (error instanceof Conflict || error instanceof BadRequest || error instanceof NotFound) return { ok: false, message: error.message };
      throw error;
    }
  }

  async pause(user: UserRow, id: number, resumeOn: string | null): Promise<SubscriptionView> {
    const now = this.deps.clock();
    const row = await this.deps.db.transaction(async (tx) => {
      const sub = await this.own(tx, user, id, true);
      refuseEnded(sub);
      if (resumeOn !== null && resumeOn <= nzToday(now)) throw fieldError('resumeOn', 'Choose a day after today to start again.');
      const [paused] = await tx.update(subscriptions).set({ status: 'paused', pausedUntil: resumeOn, updatedAt: sql`now()` }).where(eq(subscriptions.id, sub.id)).returning();
      return paused!;
    });
    this.changed();
    return this.view(row);
  }

  async resume(user: UserRow, id: number): Promise<SubscriptionView> {
    const delivery = await this.deps.delivery.settings();
    const now = this.deps.clock();
    const row = await this.deps.db.transaction(async (tx) => {
      const sub = await this.own(tx, user, id, true);
      refuseEnded(sub);
      if (sub.status !== 'paused') return sub;
      // The paused weeks stay gone: boxes come from the first one still before its cut-off.
      const [resumed] = await tx
        .update(subscriptions)
        .set({ status: 'active', pausedUntil: null, boxesFrom: firstOpenDate(sub, delivery, now), updatedAt: sql`now()` })
        .where(eq(subscriptions.id, sub.id))
        .returning();
      return resumed!;
    });
    this.changed();
    return this.view(row);
  }

  /** Cancel: no box after this (orders already made stay, and can be cancelled as any order). Again is fine. */
  async cancel(user: UserRow, id: number): Promise<SubscriptionView> {
    const row = await this.deps.db.transaction(async (tx) => {
      const sub = await this.own(tx, user, id, true);
      if (sub.status === 'cancelled') return sub;
      const [cancelled] = await tx.update(subscriptions).set({ status: 'cancelled', pausedUntil: null, cancelledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(subscriptions.id, sub.id)).returning();
      return cancelled!;
    });
    this.changed();
    return this.view(row);
  }

  /** The boxes season boxes will take have changed: this process's count is worked out again. */
  private changed(): void {
    this.deps.delivery.reserved.forget();
  }

  async view(row: SubscriptionRow): Promise<SubscriptionView> {
    const [settings, delivery] = await Promise.all([this.deps.settings.stored(), this.deps.delivery.settings()]);
    return this.viewIn(this.deps.db, row, settings, delivery, this.deps.clock());
  }

  /** The subscription with its coming boxes: their dates, state, price now, and whether they are still open. */
  async viewIn(db: Db | Tx, row: SubscriptionRow, settings: StoredSettings, delivery: DeliverySettings, now: Date): Promise<SubscriptionView> {
    const today = nzToday(now);
    const rows = await db
      .select({ delivery: subscriptionDeliveries, orderNumber: orders.number, orderStatus: orders.status })
      .from(subscriptionDeliveries)
      .leftJoin(orders, eq(orders.id, subscriptionDeliveries.orderId))
      .where(and(eq(subscriptionDeliveries.subscriptionId, row.id), gte(subscriptionDeliveries.deliveryDate, today)));
    const byDate = new Map(rows.map((found) => [found.delivery.deliveryDate, found]));
    const productIds = [...new Set([row.productId, ...rows.flatMap((found) => (found.delivery.productId ? [found.delivery.productId] : []))])];
    const productRows = await db.select(productColumns).from(products).where(inArray(products.id, productIds));
    const byId = new Map(productRows.map((product) => [product.id, product]));
    const product = byId.get(row.productId)!;
    const schedule = { firstDeliveryDate: row.firstDeliveryDate, every: row.every, seasonEndsOn: product.seasonEndsOn };
    const status = statusOf(row, product, today);
    const deliveryCents = settings.shippingCents + (row.rural ? delivery.ruralSurchargeCents : 0);
    const live = status === 'active' || status === 'paused';
    const from = row.boxesFrom && row.boxesFrom > today ? row.boxesFrom : today;
    const dates = live ? deliveryDatesOf(schedule, from, addDays(from, intervalDays[row.every] * (comingDeliveriesShown + 1))).slice(0, comingDeliveriesShown) : [];
    const coming: SeasonBoxDelivery[] = dates.map((date) => {
      const found = byDate.get(date);
      // An order cancelled (unpaid by the packing cut-off, or by the shopper) did not come; a day
      // closed since brings no box.
      const closed = found?.delivery.state ? null : noDeliveryOn(delivery, row.shipRegion, date);
      const cancelledOrder = found?.delivery.state === 'ordered' && found.orderStatus === 'cancelled';
      const decided = cancelledOrder || closed ? 'skipped' : (found?.delivery.state ?? null);
      const boxProduct = byId.get(found?.delivery.productId ?? row.productId) ?? product;
      const quantity = found?.delivery.quantity ?? row.quantity;
      const cutoff = cutoffOf(delivery, row.shipRegion, date);
      const paused = !decided && row.status === 'paused' && (!row.pausedUntil || date < row.pausedUntil);
      return {
        date,
        dispatchDate: dispatchDayOf(delivery, row.shipRegion, date),
        cutoffAt: cutoff.toISOString(),
        state: decided ?? (paused ? 'paused' : 'scheduled'),
        productId: boxProduct.id,
        productName: boxProduct.name,
        quantity,
        totalCents: subscriberPriceCents(boxProduct.priceCents, boxProduct.subscriberDiscountPercent) * quantity + deliveryCents,
        changedForThisBox: boxProduct.id !== row.productId || quantity !== row.quantity,
        open: now < cutoff && !closed && !cancelledOrder && (decided === null || decided === 'skipped'),
        note: closed ? `No delivery that day: ${closed}` : cancelledOrder ? 'Its order was cancelled (not paid by the packing cut-off, or cancelled)' : (found?.delivery.note ?? null),
        orderNumber: found?.orderNumber ?? null,
      };
    });
    return {
      id: row.id,
      status,
      product: { id: product.id, name: product.name, imageUrl: product.imageUrl, priceCents: product.priceCents, subscriberDiscountPercent: product.subscriberDiscountPercent },
      quantity: row.quantity,
      every: row.every,
      weekday: weekdayOf(row.firstDeliveryDate),
      firstDeliveryDate: row.firstDeliveryDate,
      lastDeliveryDate: lastDeliveryOf(schedule),
      paymentMethod: row.paymentMethod,
      shipping: { name: row.shipName, phone: row.shipPhone, street: row.shipStreet, suburb: row.shipSuburb, city: row.shipCity, postcode: row.shipPostcode, region: row.shipRegion, deliveryInstructions: row.deliveryInstructions },
      pausedUntil: row.status === 'paused' ? row.pausedUntil : null,
      unitPriceCents: subscriberPriceCents(product.priceCents, product.subscriberDiscountPercent),
      deliveryCents,
      createdAt: row.createdAt.toISOString(),
      coming,
    };
  }

  private async setSkipped(tx: Tx, delivery: DeliverySettings, sub: SubscriptionRow, date: string, skipped: boolean): Promise<SubscriptionRow> {
    const now = this.deps.clock();
    refuseEnded(sub);
    const [product] = await tx.select({ seasonEndsOn: products.seasonEndsOn }).from(products).where(eq(products.id, sub.productId));
    if (!deliversOn({ firstDeliveryDate: sub.firstDeliveryDate, every: sub.every, seasonEndsOn: product?.seasonEndsOn ?? null }, date)) {
      throw new NotFound(`Your season box has no delivery on ${dayWords(date)}.`);
    }
    const cutoff = cutoffOf(delivery, sub.shipRegion, date);
    const [row] = await tx
      .select()
      .from(subscriptionDeliveries)
      .where(and(eq(subscriptionDeliveries.subscriptionId, sub.id), eq(subscriptionDeliveries.deliveryDate, date)))
      .for('update');
    if (row?.state === 'ordered' || row?.state === 'missed' || now >= cutoff) {
      throw new Conflict(`The box on ${dayWords(date)} is past its cut-off: it can no longer be ${skipped ? 'skipped' : 'brought back'}.`);
    }
    if (skipped) {
      await tx
        .insert(subscriptionDeliveries)
        .values({ subscriptionId: sub.id, deliveryDate: date, state: 'skipped', note: 'Skipped by you' })
        .onConflictDoUpdate({ target: [subscriptionDeliveries.subscriptionId, subscriptionDeliveries.deliveryDate], set: { state: 'skipped', note: 'Skipped by you', updatedAt: sql`now()` } });
    } else if (row?.state === 'skipped') {
      await refuseFullDay(tx, delivery, sub.shipRegion, date, row.quantity ?? sub.quantity);
      await tx
        .update(subscriptionDeliveries)
        .set({ state: null, note: null, updatedAt: sql`now()` })
        .where(and(eq(subscriptionDeliveries.subscriptionId, sub.id), eq(subscriptionDeliveries.deliveryDate, date)));
    }
    return sub;
  }

  /** The first coming box still before its cut-off and not decided, with its row if it has one. */
  private async nextOpen(tx: Tx, sub: SubscriptionRow, delivery: DeliverySettings, now: Date): Promise<{ date: string; row: DeliveryRow | undefined } | null> {
    const today = nzToday(now);
    const [product] = await tx.select({ seasonEndsOn: products.seasonEndsOn }).from(products).where(eq(products.id, sub.productId));
    const dates = deliveryDatesOf({ firstDeliveryDate: sub.firstDeliveryDate, every: sub.every, seasonEndsOn: product?.seasonEndsOn ?? null }, today, addDays(today, 8 * 7));
    const rows = await tx.select().from(subscriptionDeliveries).where(and(eq(subscriptionDeliveries.subscriptionId, sub.id), gte(subscriptionDeliveries.deliveryDate, today)));
    const byDate = new Map(rows.map((row) => [row.deliveryDate, row]));
    for (const date of dates) {
      if (now >= cutoffOf(delivery, sub.shipRegion, date)) continue;
      const row = byDate.get(date);
      if (row?.state) continue;
      if (sub.status === 'paused' && (!sub.pausedUntil || date < sub.pausedUntil)) continue;
      return { date, row };
    }
    return null;
  }

  private async own(db: Db | Tx, user: UserRow, id: number, lock = false): Promise<SubscriptionRow> {
    const query = db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.id, id), eq(subscriptions.userId, user.id)));
    const [row] = lock ? await query.for('update') : await query;
    // Another shopper's subscription is not found: its id says nothing of whether it exists.
    if (!row) throw new NotFound('Season box not found.');
    return row;
  }

  private async subscribableProduct(tx: Tx, productId: number): Promise<ProductRow> {
    const [product] = await tx.select(productColumns).from(products).where(eq(products.id, productId));
    if (!product || product.isHidden || product.archivedAt) throw fieldError('productId', 'This product is not available.');
    if (!product.subscribable) throw fieldError('productId', `${product.name} is not offered as a season box.`);
    if (product.isPreOrder) throw fieldError('productId', `${product.name} is sold as a pre-order: season boxes come from boxes in stock.`);
    if (product.seasonEndsOn && product.seasonEndsOn < nzToday(this.deps.clock())) throw fieldError('productId', `${product.name}'s season has ended.`);
    return product;
  }
}

const subscribeLockKey = 48_001;

/** The first of the season box's dates from today still before its cut-off: where it starts (again). */
function firstOpenDate(sub: SubscriptionRow, delivery: DeliverySettings, now: Date): string {
  const today = nzToday(now);
  const from = sub.firstDeliveryDate > today ? sub.firstDeliveryDate : today;
  const dates = deliveryDatesOf({ firstDeliveryDate: sub.firstDeliveryDate, every: sub.every, seasonEndsOn: null }, from, addDays(from, 60));
  return dates.find((date) => now < cutoffOf(delivery, sub.shipRegion, date)) ?? addDays(from, 60);
}

/** What the subscription is now: a season past its end is ended, whatever the row says. */
function statusOf(row: SubscriptionRow, product: Pick<ProductRow, 'seasonEndsOn'>, today: string): SubscriptionView['status'] {
  if (row.status === 'cancelled' || row.status === 'ended') return row.status;
  const last = lastDeliveryOf({ firstDeliveryDate: row.firstDeliveryDate, every: row.every, seasonEndsOn: product.seasonEndsOn });
  if (product.seasonEndsOn && (last === null || last < today)) return 'ended';
  if (row.status === 'paused' && row.pausedUntil && row.pausedUntil <= today) return 'active';
  return row.status;
}

function refuseEnded(sub: SubscriptionRow): void {
  if (sub.status === 'cancelled') throw new Conflict('This season box is cancelled.');
  if (sub.status === 'awaiting_card') throw new Conflict('Save your card for this season box first: its boxes start once it is saved.');
  if (sub.status === 'ended') throw new Conflict("This season box's season has ended.");
}

/** A first delivery must be a day the region is delivered on, open, within reach and before its cut-off. */
function refuseDate(delivery: DeliverySettings, region: SubscriptionRow['shipRegion'], date: string, now: Date): void {
  const refuse = (message: string) => fieldError('firstDeliveryDate', message);
  const dispatchDate = dispatchDayOf(delivery, region, date);
  const reason = whyNot({ settings: delivery, region, booked: new Map(), boxes: 0 }, date, dispatchDate);
  if (reason === undefined) throw refuse(`We do not deliver to ${region} on ${dayWords(date)}. Please choose one of the dates offered.`);
  if (reason !== null) throw refuse(`${dayWords(date)} is not available (${reason}). Please choose another date.`);
  if (now >= cutoffOf(delivery, region, date)) throw refuse(`${dayWords(date)} is too soon for a first season box: its cut-off has passed. Please choose a later date.`);
  if (date > addDays(nzToday(now), horizonDays)) throw refuse('That first delivery is too far ahead. Please choose one of the dates offered.');
}

/** A day with no room for `boxes` more (its orders and the other season boxes counted) is a 409 naming it. */
async function refuseFullDay(tx: Tx, delivery: DeliverySettings, region: SubscriptionRow['shipRegion'], date: string, boxes: number): Promise<void> {
  const dispatchDate = dispatchDayOf(delivery, region, date);
  // The room checkout's orders have (capacity less the season boxes kept), as a season box must fit it too.
  const [booked, room] = await Promise.all([bookedBetween(tx, dispatchDate, dispatchDate), capacityForOrders(tx, delivery, dispatchDate)]);
  if ((booked.get(dispatchDate) ?? 0) + boxes > room) {
    const message = `${dayWords(date)} is fully booked. Please choose another delivery day.`;
    throw new Conflict(message, { firstDeliveryDate: message });
  }
}

/** The e-mail that says the season box is set up: what comes, when, for how much, and where to change it. */
export function welcomeMail(mail: { to: string; firstName: string; view: SubscriptionView; siteName: string; accountUrl: string }) {
  const { view } = mail;
  const first = view.coming[0];
  return composeMail({
    to: mail.to,
    subject: `Your season box of ${view.product.name} is set up`,
    preview: first ? `Your first box arrives on ${dayWords(first.date)}.` : 'Your season box is set up.',
    greeting: `Kia ora ${mail.firstName},`,
    parts: [
      `Thank you: your season box is set up. ${intervalLabels[view.every]}, ${view.quantity} × ${view.product.name}, delivered to ${view.shipping.street}, ${view.shipping.city}.`,
      '',
      ...(first ? [{ kind: 'callout' as const, text: `Your first box arrives on ${dayWords(first.date)}.` }] : []),
      {
        kind: 'table',
        rows: [
          { label: 'Each box', value: formatNzd(view.unitPriceCents * view.quantity) },
          { label: 'Delivery', value: formatNzd(view.deliveryCents) },
          { label: 'Paid by', value: view.paymentMethod === 'bank_transfer' ? 'Bank transfer, each box' : 'Card, each box' },
          ...(view.lastDeliveryDate ? [{ label: 'Last box of the season', value: dayWords(view.lastDeliveryDate) }] : []),
        ],
      },
      'A few days before each box we e-mail you, so you can skip it or change it in one click. Each box is ordered at its cut-off, with the price of the day less your subscriber discount.',
      '',
      { kind: 'button', label: 'See your season box', href: mail.accountUrl },
    ],
    siteName: mail.siteName,
  });
}
