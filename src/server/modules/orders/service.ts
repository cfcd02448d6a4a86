import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { placeOrderSchema } from '../../../contracts/checkout';
import { type Carrier, nextStatuses, type OrderStatus, unsentOrderStatuses, orderStatusLabels, type OrderSummary, type OrderView, type PlacedOrder, refundReturnsStockFrom, type StockMovementReason } from '../../../contracts/order';
import type { Db, Tx } from '../../db/client';
import { cartLines, carts, orderEvents, orderLines, orders, products, promoCodes, refunds, stockMovements, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { BadRequest, Conflict, fieldError, isUniqueViolation, NotFound } from '../../lib/errors';
import { queueMail } from '../../lib/mail-outbox';
import { sessionLifetimeLimits, type StripeCheckout } from '../../lib/payments';
import type { UserRow } from '../auth/user-view';
import { priceCart } from '../checkout/quote';
import type { StoredSettings } from '../../../contracts/settings';
import type { SettingsService } from '../settings/service';
import { type BookedDelivery, bookChosenDate, type DeliveryService, releaseDispatchDay } from '../delivery/service';
import type { DeliverySettings } from '../../../contracts/delivery';
import { boxesOf, isRuralAddress, needsDeliveryDate } from '../../../contracts/checkout';
import { claimPromoUse, claimStock } from './claims';
import { cancelledMail, confirmationMail, paidMail, refundedMail, shippedMail } from './mail';
import { type OrderRow, orderSummaries, orderView, viewOf } from './view';

export type PlaceOrderRequest = z.output<typeof placeOrderSchema>;

export interface OrderDeps {
  db: Db;
  settings: SettingsService;
  delivery: DeliveryService;
  bus: CacheBus;
  stripe: StripeCheckout | undefined;
  publicUrl: string;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
}

export interface StatusChange {
  /** Who made the change; null for the shop itself (payment webhook, unpaid-order timeout). */
  actorUserId: number | null;
  note?: string;
  trackingNumber?: string;
  /** Who carries the boxes, recorded with the tracking number when the order ships. */
  carrier?: Carrier;
  /** Change only an order that is still in this status; otherwise do nothing (replays, races). */
  onlyFrom?: OrderStatus;
  /** A staff change: recorded in the audit log with the request that made it. */
  audit?: { requestId: string };
  /** Change only an order still waiting for this product's pre-order boxes; otherwise do nothing. */
  onlyIfWaitingFor?: number;
  /** A refund: also record the money given back (what was paid, less earlier refunds), with this reason. */
  refundReason?: string;
}

const dayMs = 24 * 60 * 60 * 1000;
/** The order still points at this Stripe session (or at none). */
const stripeSessionIs = (sessionId: string | null) => (sessionId ? eq(orders.stripeSessionId, sessionId) : isNull(orders.stripeSessionId));
/** Stripe's smallest charge in NZD. */
const stripeMinimumCents = 50;
/** Times a cancel closes a card session that a pay request in another window has just replaced. */
const cancelAttempts = 3;

/** Placing, reading and moving orders along their lifecycle; every money figure is computed here. */
export class OrderService {
  constructor(private readonly deps: OrderDeps) {}

  /**
   * Turns the shopper's cart into an order in one transaction: promo use, stock and pre-order
   * limits are claimed with conditional updates, so parallel orders never oversell; a retried
   * submit with the same idempotency key returns the first order.
   */
  async place(user: UserRow, input: PlaceOrderRequest): Promise<PlacedOrder & { created: boolean }> {
    const { db } = this.deps;
    const settings = await this.deps.settings.stored();
    // A submit seen before (a retry, a double click) is found inside the transaction, under the cart's lock.
    const delivery = await this.deps.delivery.settings();
    let placed: Awaited<ReturnType<OrderService['placeInTransaction']>>;
    try {
      placed = await db.transaction((tx) => this.placeInTransaction(tx, user, input, settings, delivery));
    } catch (error) {
      // The cart lock queues one shopper's submits; this catches the rest (a shopper without a cart row yet).
      if (!isUniqueViolation(error, 'orders_user_idempotency_key')) throw error;
      const order = await this.findByKey(db, user.id, input.idempotencyKey);
      if (!order) throw error;
      placed = { order, view: null, stockChanged: false };
    }
    if (!placed.view) return { order: await this.view(placed.order), checkoutUrl: null, created: false };
    // The order and its confirmation mail are committed: nothing below may turn that into an error.
    if (placed.stockChanged) await this.deps.bus.publish('products');
    let view = placed.view;
    let checkoutUrl: string | null = null;
    if (placed.order.paymentMethod === 'stripe') {
      checkoutUrl = await this.startCardPayment(placed.order, user).catch((error: unknown) => {
        this.deps.log.error({ err: error, order: placed.order.number }, 'could not start the Stripe payment');
        return null;
      });
      if (checkoutUrl) view = await this.view(placed.order).catch(() => view);
    }
    return { order: view, checkoutUrl, created: true };
  }

  /** The order, its view (null when an earlier submit placed it) and whether stock moved. */
  private async placeInTransaction(tx: Tx, user: UserRow, input: PlaceOrderRequest, settings: StoredSettings, delivery: DeliverySettings) {
    // One shopper's submits queue here, so a double click finds the first order below.
    await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, user.id)).for('update');
    const again = await this.findByKey(tx, user.id, input.idempotencyKey);
    if (again) return { order: again, view: null, stockChanged: false };
    if (input.paymentMethod === 'stripe' && !this.deps.stripe) {
      throw fieldError('paymentMethod', 'Card payment is not available at the moment. Please choose bank transfer.');
    }

    const rural = isRuralAddress(input.shipping);
    const prices = { shippingCents: settings.shippingCents, ruralSurchargeCents: rural ? delivery.ruralSurchargeCents : 0 };
    const priced = await priceCart(tx, prices, user.id, input.promoCode, { lockPromo: true });
    const datedNow = needsDeliveryDate(priced.lines.map(({ product }) => product));
    if (datedNow && !input.deliveryDate) throw fieldError('deliveryDate', 'Choose a delivery date');
    if (priced.promoProblem) {
      const status = priced.promoProblem.reason === 'used_up' || priced.promoProblem.reason === 'customer_limit' ? 409 : 400;
      const fieldErrors = { promoCode: priced.promoProblem.message };
      throw status === 409 ? new Conflict(priced.promoProblem.message, fieldErrors) : new BadRequest(priced.promoProblem.message, fieldErrors);
    }
    if (input.expectedTotalCents !== undefined && input.expectedTotalCents !== priced.totals.totalCents) {
      const message = 'Prices or your cart changed since you opened checkout. Please check the new total and place your order again.';
      throw new Conflict(message, { total: message });
    }
    if (input.paymentMethod === 'stripe' && priced.totals.totalCents < stripeMinimumCents) {
      throw fieldError('paymentMethod', 'Card payments need a total of at least $0.50. Please choose bank transfer.');
    }
    for (const { product } of priced.lines) {
      if (product.isHidden) throw new Conflict(`${product.name} is no longer available. Please remove it from your cart.`, { cart: `${product.name} is no longer available` });
    }
    if (priced.promo) await claimPromoUse(tx, priced.promo.row.id);
    const stockChanged = await claimStock(tx, priced);
    // After stock, as every order locks: promo, products, then the dispatch day.
    let booked: BookedDelivery | null = null;
    if (datedNow && input.deliveryDate) {
      const boxes = boxesOf(priced.lines);
      booked = await bookChosenDate(tx, { settings: delivery, region: input.shipping.region, boxes, now: this.deps.delivery.clock() }, input.deliveryDate);
    }

    const { totals } = priced;
    const shipping = input.shipping;
    const [order] = await tx
      .insert(orders)
      .values({
        userId: user.id,
        status: 'pending_payment',
        paymentMethod: input.paymentMethod,
        subtotalCents: totals.subtotalCents,
        shippingCents: totals.shippingCents,
        discountCents: totals.discountCents,
        totalCents: totals.totalCents,
        gstCents: totals.gstCents,
        promoCodeId: priced.promo?.row.id ?? null,
        promoCode: priced.promo?.code ?? null,
        shipName: shipping.name,
        shipPhone: shipping.phone,
        shipStreet: shipping.street,
        shipSuburb: shipping.suburb,
        shipCity: shipping.city,
        shipPostcode: shipping.postcode,
        shipRegion: shipping.region,
        deliveryInstructions: shipping.deliveryInstructions,
        rural,
        ruralSurchargeCents: totals.ruralSurchargeCents,
        deliveryDate: booked?.deliveryDate ?? null,
        dispatchDate: booked?.dispatchDate ?? null,
        deliveryBoxes: booked?.boxes ?? 0,
        idempotencyKey: input.idempotencyKey,
      })
      .returning();
    const orderId = order!.id;
    const lines = await tx
      .insert(orderLines)
      .values(
      priced.lines.map(({ product, quantity }) => ({
        orderId,
        productId: product.id,
        productName: product.name,
        unitPriceCents: product.priceCents,
        quantity,
        isPreOrder: product.isPreOrder,
        expectedAvailabilityDate: product.isPreOrder ? product.expectedAvailabilityDate : null,
      })),
      )
      .returning();
    const stocked = priced.lines.filter(({ product }) => !product.isPreOrder);
    if (stocked.length) {
      await tx.insert(stockMovements).values(
        stocked.map(({ product, quantity }) => ({ productId: product.id, change: -quantity, reason: 'order' as const, orderId, actorUserId: user.id })),
      );
    }
    const events = await tx.insert(orderEvents).values({ orderId, status: 'pending_payment', note: 'Order placed', actorUserId: user.id }).returning();
    await tx.delete(cartLines).where(inArray(cartLines.id, priced.lines.map((line) => line.cartLineId)));
    if (shipping.saveToProfile) {
      await tx
        .update(users)
        .set({ phone: shipping.phone, address: shipping.street, city: shipping.city, postalCode: shipping.postcode, region: shipping.region, updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
    }
    // Built from the rows just written, as orderView would read them back.
    const view = viewOf(order!, [...lines].sort((a, b) => a.id - b.id), events, settings, Boolean(this.deps.stripe));
    await queueMail(tx, confirmationMail(this.mailContext(user, view, settings)));
    return { order: order!, view, stockChanged };
  }

  /**
   * A new Stripe Checkout session for an unpaid card order (the previous one is closed first);
   * it closes before the order's unpaid timeout, so a cancelled order can never be paid.
   */
  async startCardPayment(order: OrderRow, user: Pick<UserRow, 'email'>): Promise<string> {
    const { stripe, publicUrl, db } = this.deps;
    if (!stripe) throw new Conflict('Card payment is not available at the moment.');
    if (order.status !== 'pending_payment' || order.paymentMethod !== 'stripe') throw new Conflict('This order does not need a card payment.');
    const timeoutDays = (await this.deps.settings.stored()).unpaidOrderTimeoutDays;
    const deadline = order.createdAt.getTime() + timeoutDays * dayMs;
    const expiresAt = Math.min(Date.now() + sessionLifetimeLimits.maxSeconds * 1000, deadline);
    if (expiresAt - Date.now() < sessionLifetimeLimits.minSeconds * 1000) {
      throw new Conflict('The time to pay for this order has run out. Please place a new order.');
    }
    if (order.stripeSessionId) await this.closeCardSession(order, order.stripeSessionId);
    const closesAt = new Date(expiresAt);
    const session = await stripe.createSession({
      orderNumber: order.number,
      totalCents: order.totalCents,
      customerEmail: user.email,
      successUrl: `${publicUrl}/success?order=${encodeURIComponent(order.number)}`,
      cancelUrl: `${publicUrl}/account/orders/${encodeURIComponent(order.number)}`,
      expiresAt: closesAt,
      // One attempt: the session that replaces the last one, closing at this second.
      idempotencyKey: `${order.number}-after-${order.stripeSessionId ?? 'none'}-until-${Math.floor(closesAt.getTime() / 1000)}`,
    });
    // Stored only over the session this request closed: of two requests at once, one session stays open.
    const [stored] = await db
      .update(orders)
      .set({ stripeSessionId: session.id, updatedAt: sql`now()` })
      .where(and(eq(orders.id, order.id), eq(orders.status, 'pending_payment'), stripeSessionIs(order.stripeSessionId)))
      .returning({ id: orders.id });
    if (!stored) {
      const [now] = await db.select({ status: orders.status, stripeSessionId: orders.stripeSessionId }).from(orders).where(eq(orders.id, order.id));
      const unpaid = now?.status === 'pending_payment';
      // The same attempt from another request got the same session back (same idempotency key).
      if (unpaid && now.stripeSessionId === session.id) return session.url;
      await stripe.expireSession(session.id);
      if (unpaid) throw new Conflict('A card payment for this order was just started in another window. Please pay there, or try again.');
      throw new Conflict('This order does not need a card payment.');
    }
    return session.url;
  }

  /**
   * Closes the order's last Stripe session before a new one opens. A session Stripe has completed
   * is never replaced: its webhook may simply be late, so its payment is recorded here as the
   * webhook would record it, and the shopper is not asked to pay twice.
   */
  private async closeCardSession(order: OrderRow, sessionId: string): Promise<void> {
    const stripe = this.deps.stripe!;
    let session = await stripe.retrieveSession(sessionId);
    // The shopper may pay between the look and the close: expiring answers the session as it is then.
    if (session.status === 'open') session = await stripe.expireSession(sessionId);
    if (session.status === 'expired') return;
    if (session.paymentStatus !== 'paid') throw new Conflict('Your card payment for this order is still being processed. Please check again in a few minutes.');
    const outcome = await this.recordCardPayment({ orderNumber: order.number, sessionId, amountCents: session.amountCents ?? -1, currency: session.currency ?? '' });
    if (outcome === 'mismatch') {
      throw new Conflict('We have received a card payment for this order that our team needs to check. Please contact us before paying again.');
    }
    throw new Conflict('Your card payment for this order has already been received. There is nothing more to pay.');
  }

  /** The shopper's orders, newest first. */
  async listFor(userId: number): Promise<OrderSummary[]> {
    const rows = await this.deps.db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(500);
    return orderSummaries(this.deps.db, rows);
  }

  /**
   * One order of this shopper; someone else's order is simply not found. Staff may read any order
   * (`staffMayRead`), but only its owner may cancel or pay it from the shopper's routes.
   */
  async findFor(user: UserRow, number: string, staffMayRead = false): Promise<OrderRow> {
    const [order] = await this.deps.db.select().from(orders).where(eq(orders.number, number.toUpperCase()));
    if (!order || (order.userId !== user.id && !(staffMayRead && user.isAdmin))) throw new NotFound('Order not found');
    return order;
  }

  async view(order: OrderRow): Promise<OrderView> {
    return orderView(this.deps.db, order, await this.deps.settings.stored(), Boolean(this.deps.stripe));
  }

  /** The shopper cancels an order that is still waiting for payment; stock goes back on the shelf. */
  async cancelByShopper(user: UserRow, number: string): Promise<OrderView> {
    const order = await this.findFor(user, number);
    const changed = await this.changeStatus(order.id, 'cancelled', { actorUserId: user.id, note: 'Cancelled by the customer', onlyFrom: 'pending_payment' });
    if (!changed) throw new Conflict('This order has been paid and can no longer be cancelled here. Please contact us.');
    return this.view(changed);
  }

  /**
   * An open order still waiting for `productId`'s pre-order boxes, which a short shipment cannot
   * serve: an unpaid one is cancelled, a paid one refunded in full (with a refund record). Answers
   * what happened, or null when the order was no longer waiting (served or cancelled meanwhile).
   */
  async cancelForShortShipment(orderId: number, productId: number, change: StatusChange): Promise<'cancelled' | 'refunded' | null> {
    const [order] = await this.deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
    if (!order) return null;
    const to = order.status === 'pending_payment' ? 'cancelled' : 'refunded';
    const changed = await this.changeStatus(orderId, to, { ...change, onlyFrom: order.status, onlyIfWaitingFor: productId, ...(to === 'refunded' ? { refundReason: change.note ?? 'Pre-order not supplied' } : {}) });
    return changed ? to : null;
  }

  /**
   * Moves an order along its lifecycle in one transaction (cancelling, or refunding before the
   * boxes were sent, returns its stock and its promo use), records the step on the timeline and
   * e-mails the customer on paid, shipped, cancelled and refunded. Answers null when `onlyFrom` no
   * longer matches. The order row stays locked to the end, so of two staff refunding at once the
   * second finds it refunded and is refused: stock goes back once.
   */
  async changeStatus(orderId: number, to: OrderStatus, change: StatusChange): Promise<OrderRow | null> {
    const settings = await this.deps.settings.stored();
    // A pay request in another window may store a new session between the close and the lock
    // below. The cancel still wins: it is what the shopper (or staff) last asked for, and the new
    // session has taken no money, so it is closed too (its page then says it has expired). Only
    // when new sessions keep coming does the cancel give up, leaving the order payable.
    for (let attempt = 1; ; attempt += 1) {
      const closedSession = to === 'cancelled' ? await this.closeCardSessionBeforeCancel(orderId) : null;
      const result = await this.changeStatusOnce(orderId, to, change, settings, closedSession);
      if (result === 'session replaced') {
        if (attempt < cancelAttempts) continue;
        throw new Conflict('A card payment for this order was just started in another window. Please close it and try cancelling again.');
      }
      if (!result) return null;
      if (result.stockReturned) await this.deps.bus.publish('products');
      return result.order;
    }
  }

  /**
   * One try of `changeStatus`. A cancel is refused with 'session replaced' when the order, locked
   * now, points at another Stripe session than the one closed before (`closedSession`).
   */
  private async changeStatusOnce(orderId: number, to: OrderStatus, change: StatusChange, settings: StoredSettings, closedSession: string | null) {
    return this.deps.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!order) throw new NotFound('Order not found');
      if (change.onlyFrom && order.status !== change.onlyFrom) return null;
      if (to === 'cancelled' && this.deps.stripe && order.status === 'pending_payment' && order.paymentMethod === 'stripe' && order.stripeSessionId !== closedSession) {
        return 'session replaced' as const;
      }
      const waiting = await tx
        .select({ productId: orderLines.productId, name: orderLines.productName })
        .from(orderLines)
        .where(and(eq(orderLines.orderId, orderId), eq(orderLines.isPreOrder, true), isNull(orderLines.allocatedAt)));
      if (change.onlyIfWaitingFor !== undefined && !waiting.some((line) => line.productId === change.onlyIfWaitingFor)) return null;
      const events = await tx.select({ status: orderEvents.status }).from(orderEvents).where(eq(orderEvents.orderId, orderId));
      if (!nextStatuses({ status: order.status, events, waitingForStock: waiting.length > 0 }).includes(to)) {
        if (order.status === 'cancelled' && to === 'refunded') throw new Conflict('This order was cancelled before it was paid: there is no payment to refund.');
        if (waiting.length && (to === 'packed' || to === 'shipped')) {
          throw new Conflict(`This order is still waiting for its pre-order boxes of ${waiting.map((line) => line.name).join(', ')}: record their shipment on Inventory first.`);
        }
        throw new Conflict(`An order that is ${orderStatusLabels[order.status].toLowerCase()} cannot be marked ${orderStatusLabels[to].toLowerCase()}.`);
      }
      // Boxes that will not be packed give their room on the dispatch day back (below, after stock, as placing locks).
      const releasesDay = (to === 'cancelled' || to === 'refunded') && order.dispatchDate !== null && order.deliveryBoxes > 0 && unsentOrderStatuses.includes(order.status);
      const [updated] = await tx
        .update(orders)
        .set({
          status: to,
          updatedAt: sql`now()`,
          ...(releasesDay ? { deliveryBoxes: 0 } : {}),
          ...(change.trackingNumber !== undefined ? { trackingNumber: change.trackingNumber } : {}),
          ...(change.carrier !== undefined ? { carrier: change.carrier } : {}),
        })
        .where(eq(orders.id, orderId))
        .returning();
      let stockReturned = false;
      let refundedNowCents = 0;
      if (to === 'cancelled') stockReturned = await this.returnStock(tx, order, change.actorUserId, 'cancellation');
      if (to === 'refunded' && refundReturnsStockFrom.includes(order.status)) stockReturned = await this.returnStock(tx, order, change.actorUserId, 'refund');
      if (releasesDay && order.dispatchDate) await releaseDispatchDay(tx, order.dispatchDate, order.deliveryBoxes);
      // Every refund is a money record (claims refund parts of orders too): what is left to give back.
      if (to === 'refunded') {
        const [given] = await tx.select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` }).from(refunds).where(eq(refunds.orderId, orderId));
        const owed = order.totalCents - Number(given?.cents ?? 0);
        const reason = change.refundReason ?? (change.note || 'Refund recorded by staff');
        if (owed > 0) await tx.insert(refunds).values({ orderId, amountCents: owed, reason, actorUserId: change.actorUserId });
        refundedNowCents = Math.max(owed, 0);
      }
      await tx.insert(orderEvents).values({ orderId, status: to, note: change.note ?? '', actorUserId: change.actorUserId });
      if (change.audit) {
        await recordAudit(tx, {
          actorUserId: change.actorUserId,
          action: `order.${to}`,
          entity: 'order',
          entityId: order.number,
          before: { status: order.status, trackingNumber: order.trackingNumber, carrier: order.carrier },
          after: { status: to, trackingNumber: updated!.trackingNumber, carrier: updated!.carrier, note: change.note ?? '' },
          requestId: change.audit.requestId,
        });
      }
      await this.queueStatusMail(tx, updated!, to, change.note ?? '', settings, refundedNowCents);
      return { order: updated!, stockReturned };
    });
  }

  /**
   * An unpaid card order's Stripe session is closed before the order is cancelled, so it cannot be
   * paid afterwards. When Stripe has already taken the money (its webhook is late), the payment is
   * recorded instead, and a cancel that expected an unpaid order finds it paid and does nothing.
   * A payment still processing, or one that does not match the total, stops the cancel until
   * Stripe knows how it ended or staff have checked it. Answers the session the order pointed at
   * (closed now), or null for none.
   */
  private async closeCardSessionBeforeCancel(orderId: number): Promise<string | null> {
    const { stripe, db } = this.deps;
    if (!stripe) return null;
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!order || order.status !== 'pending_payment' || order.paymentMethod !== 'stripe' || !order.stripeSessionId) return order?.stripeSessionId ?? null;
    const session = await stripe.expireSession(order.stripeSessionId);
    if (session.status !== 'complete') return session.id;
    if (session.paymentStatus !== 'paid') {
      throw new Conflict('The card payment for this order is still being processed, so it cannot be cancelled yet. Please check again in a few minutes.');
    }
    const outcome = await this.recordCardPayment({ orderNumber: order.number, sessionId: session.id, amountCents: session.amountCents ?? -1, currency: session.currency ?? '' });
    if (outcome === 'mismatch') {
      // Cancelling would put the boxes back on sale while Stripe holds money for them.
      this.deps.log.error({ order: order.number, session: session.id }, 'cancel refused: a card payment that does not match the order total needs checking');
      throw new Conflict('We have received a card payment for this order that does not match its total, so it cannot be cancelled until our team has checked it. Please contact us.');
    }
    return session.id;
  }

  /** Gives back the order's boxes and promo use, locking rows in the order placing does (promo, then products). */
  private async returnStock(tx: Tx, order: OrderRow, actorUserId: number | null, reason: StockMovementReason): Promise<boolean> {
    if (order.promoCodeId !== null) {
      await tx
        .update(promoCodes)
        .set({ usedCount: sql`greatest(${promoCodes.usedCount} - 1, 0)` })
        .where(eq(promoCodes.id, order.promoCodeId));
    }
    const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.productId));
    let returned = false;
    for (const line of lines) {
      if (line.productId === null) continue;
      // A pre-order without boxes from a shipment holds no stock, but its place under the
      // pre-order limit is free again: the catalogue must hear of it all the same.
      if (line.isPreOrder && line.allocatedAt === null) {
        returned = true;
        continue;
      }
      const [product] = await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: sql`now()` })
        .where(eq(products.id, line.productId))
        .returning({ id: products.id });
      if (!product) continue;
      await tx.insert(stockMovements).values({ productId: line.productId, change: line.quantity, reason, orderId: order.id, actorUserId });
      returned = true;
    }
    return returned;
  }

  /**
   * Cancels orders left unpaid longer than the settings allow, returning their stock. Safe with
   * several server processes: each order is locked and re-checked, so only one process cancels it.
   * Once `stop` is aborted (the server is shutting down) no further order is started: each may
   * wait on Stripe, and the rest are swept next time.
   */
  async cancelOverdue(now = new Date(), stop?: AbortSignal): Promise<number> {
    const days = (await this.deps.settings.stored()).unpaidOrderTimeoutDays;
    const cutoff = new Date(now.getTime() - days * dayMs);
    const due = await this.deps.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.status, 'pending_payment'), lt(orders.createdAt, cutoff)))
      .orderBy(asc(orders.createdAt))
      .limit(200);
    let cancelled = 0;
    for (const { id } of due) {
      if (stop?.aborted) break;
      const note = `Not paid within ${days} day${days === 1 ? '' : 's'}`;
      // One order that cannot be settled now (Stripe unreachable, a payment processing) waits for the next sweep.
      const changed = await this.changeStatus(id, 'cancelled', { actorUserId: null, note, onlyFrom: 'pending_payment' }).catch((error: unknown) => {
        this.deps.log.warn({ err: error, orderId: id }, 'unpaid order not cancelled this time');
        return null;
      });
      if (changed) cancelled += 1;
    }
    return cancelled;
  }

  /**
   * A Stripe Checkout session was paid (told by the webhook, or seen by the pay route before it):
   * marks its order paid once (a replay finds it paid already). The amount must match the order's
   * total, or the order is left for staff to check.
   */
  async recordCardPayment(payment: { orderNumber: string; sessionId: string; amountCents: number; currency: string }): Promise<'paid' | 'already' | 'mismatch' | 'unknown'> {
    const [order] = await this.deps.db.select().from(orders).where(eq(orders.number, payment.orderNumber));
    if (!order || order.paymentMethod !== 'stripe') return 'unknown';
    if (payment.amountCents !== order.totalCents || payment.currency.toLowerCase() !== 'nzd') {
      this.deps.log.error({ order: order.number, amount: payment.amountCents, currency: payment.currency }, 'card payment does not match the order total');
      return 'mismatch';
    }
    // The status is checked under the order's lock: a cancel at the same moment is seen here.
    const changed = await this.changeStatus(order.id, 'paid', { actorUserId: null, note: `Card payment received (${payment.sessionId})`, onlyFrom: 'pending_payment' });
    if (changed) return 'paid';
    const [now] = await this.deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    if (now?.status === 'cancelled') {
      this.deps.log.error({ order: order.number, session: payment.sessionId }, 'card payment received for a cancelled order: refund it');
    } else if (payment.sessionId !== order.stripeSessionId) {
      // Only the order's latest session can still take money, so a payment through another is a second charge.
      this.deps.log.error({ order: order.number, session: payment.sessionId }, 'second card payment for an order already paid: refund it');
    }
    return 'already';
  }

  /** The customer's e-mail on paid, shipped, cancelled and refunded, queued with the change itself. */
  private async queueStatusMail(tx: Tx, order: OrderRow, status: OrderStatus, note: string, settings: StoredSettings, refundedNowCents: number): Promise<void> {
    if (status !== 'paid' && status !== 'shipped' && status !== 'cancelled' && status !== 'refunded') return;
    const [customer] = await tx.select().from(users).where(eq(users.id, order.userId));
    if (!customer) return;
    const context = this.mailContext(customer, await orderView(tx, order, settings, Boolean(this.deps.stripe)), settings);
    await queueMail(
      tx,
      status === 'paid' ? paidMail(context) : status === 'shipped' ? shippedMail(context) : status === 'refunded' ? refundedMail(context, refundedNowCents) : cancelledMail(context, note ? `${note}.` : ''),
    );
  }

  mailContext(user: Pick<UserRow, 'email' | 'firstName'>, order: OrderView, settings: StoredSettings) {
    return { to: user.email, firstName: user.firstName, order, settings, orderUrl: `${this.deps.publicUrl}/account/orders/${order.number}` };
  }

  private async findByKey(db: Db | Tx, userId: number, key: string): Promise<OrderRow | undefined> {
    const [order] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
    return order;
  }
}
