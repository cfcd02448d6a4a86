import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { nextStatuses, type OrderStatus, orderStatusLabels, refundReturnsStockFrom, type StockMovementReason, unsentOrderStatuses } from '../../../contracts/order';
import type { StoredSettings } from '../../../contracts/settings';
import type { Tx } from '../../db/client';
import { orderEvents, orderLineBatches, orderLines, orders, products, promoCodes, refunds, stockMovements, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { Conflict, NotFound } from '../../lib/errors';
import { queueMail } from '../../lib/mail-outbox';
import { releaseDispatchDay } from '../delivery/service';
import { lockBatchesOf, putBackIntoBatch, receiveBatch, takeBackPackedBatches, takeFromBatches } from '../inventory/batches';
import type { CardPayments } from './card-payments';
import { cancelledMail, paidMail, refundedMail, shippedMail } from './mail';
import { recordRefund, refundMethodOf } from './refunds';
import { planReadyMail, type ShippedRipeness } from './ripeness';
import { planReviewMail } from '../reviews/invites';
import { nzToday } from '../../../contracts/dates';
import type { OrderDeps, OrderService, StatusChange } from './service';
import { releasePickupDay } from '../delivery/pickup';
import { type OrderRow, orderView } from './view';

/** A day in milliseconds: the unpaid-order timeout is counted in days. */
export const dayMs = 24 * 60 * 60 * 1000;
/** Times a cancel closes a card session that a pay request in another window has just replaced. */
const cancelAttempts = 3;

/** Moving orders along their lifecycle: each step with its stock, refund, timeline entry and e-mail. */
export class OrderStatusChanges {
  constructor(
    private readonly deps: OrderDeps,
    private readonly orders: OrderService,
    private readonly cards: CardPayments,
  ) {}

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
      const closedSession = to === 'cancelled' ? await this.cards.closeCardSessionBeforeCancel(await this.payerOf(orderId)) : null;
      const result = await this.changeStatusOnce(orderId, to, change, settings, closedSession);
      if (result === 'session replaced') {
        if (attempt < cancelAttempts) continue;
        throw new Conflict('A card payment for this order was just started in another window. Please close it and try cancelling again.');
      }
      if (!result) return null;
      // Packing moves boxes out of batches: which batch the next order comes from may change too.
      if (result.stockReturned || to === 'packed') await this.deps.bus.publish('products');
      // Its promo use given back (or the use of the order paid for with it), a code used up is offered in the banner again.
      if (result.promoReturned) await this.deps.bus.publish('promos');
      // A card refund goes to Stripe once the refund is committed (never from inside the transaction).
      if (result.cardRefund) await this.orders.refunds.sendCardRefundsSoon({ orderId });
      return result.order;
    }
  }

  /** The order whose payment pays for this one: itself, or the first of a cart sent in two deliveries. */
  private async payerOf(orderId: number): Promise<number> {
    const [row] = await this.deps.db.select({ paidWith: orders.paidWithOrderId }).from(orders).where(eq(orders.id, orderId));
    return row?.paidWith ?? orderId;
  }

  /**
   * One try of `changeStatus`. A cancel is refused with 'session replaced' when the order, locked
   * now, points at another Stripe session than the one closed before (`closedSession`).
   */
  private async changeStatusOnce(orderId: number, to: OrderStatus, change: StatusChange, settings: StoredSettings, closedSession: string | null) {
    return this.deps.db.transaction(async (tx) => {
      // A cart sent in two deliveries is two orders, one payment: both rows are locked, in id order
      // (the first order's is the lower), so a change of either waits for a change of the other.
      const firstOfPair = sql`${orders.id} = (select paired.paid_with_order_id from ${orders} as paired where paired.id = ${orderId})`;
      const locked = await tx.select().from(orders).where(or(eq(orders.id, orderId), eq(orders.paidWithOrderId, orderId), firstOfPair)).orderBy(asc(orders.id)).for('update');
      const order = locked.find((row) => row.id === orderId);
      if (!order) throw new NotFound('Order not found');
      if (change.onlyFrom && order.status !== change.onlyFrom) return null;
      const paired = locked.find((row) => row.id !== orderId);
      const payer = order.paidWithOrderId !== null && paired ? paired : order;
      if (to === 'cancelled' && this.deps.stripe && order.status === 'pending_payment' && payer.paymentMethod === 'stripe' && payer.stripeSessionId !== closedSession) {
        return 'session replaced' as const;
      }
      // Until it is paid the pair is one payment: paying or cancelling one does the same to the
      // other. A pre-order that cannot be supplied (a short shipment) is cancelled alone, so the
      // in-stock boxes still come: the first order then costs only its own total.
      const together = (to === 'paid' || (to === 'cancelled' && change.onlyIfWaitingFor === undefined)) && order.status === 'pending_payment' && paired?.status === 'pending_payment';
      // Both orders give their boxes back: their promo and products are locked first, products in
      // id order, as a placement claims them, and only then the days.
      if (together && to === 'cancelled') await lockWhatPairReturns(tx, [order, paired!]);
      const alone = to === 'cancelled' && !together && order.status === 'pending_payment' && order.paidWithOrderId !== null && paired?.status === 'pending_payment';
      // The shopper's e-mail says what became of the other order.
      const told = together && to === 'cancelled' ? `Order ${paired!.number}, paid for together, is cancelled too` : alone ? `Order ${paired!.number} still comes as planned, for its own total` : '';
      const moved = await this.apply(tx, order, to, told ? { ...change, note: [change.note, told].filter(Boolean).join('. ') } : change, settings);
      if (!moved) return null;
      if (alone && paired!.stripeSessionId) {
        // The first order's card session (closed before this transaction) asked for both totals: a
        // payment started in another window at this moment can no longer store its session over it,
        // and the next Pay asks for the first order's own total.
        await tx.update(orders).set({ stripeSessionId: null, updatedAt: sql`now()` }).where(eq(orders.id, paired!.id));
      }
      if (together) {
        const why = to === 'paid' ? `Paid with ${order.number}` : `Cancelled with ${order.number}, paid for together`;
        const pairMoved = await this.apply(tx, paired, to, { actorUserId: change.actorUserId, note: change.note ? `${why}: ${change.note}` : why, ...(change.audit ? { audit: change.audit } : {}) }, settings);
        if (pairMoved?.stockReturned) moved.stockReturned = true;
        if (pairMoved?.promoReturned) moved.promoReturned = true;
      }
      return moved;
    });
  }

  /** One order's step, its row locked by the caller: null when `onlyIfWaitingFor` does not hold. */
  private async apply(tx: Tx, order: OrderRow, to: OrderStatus, change: StatusChange, settings: StoredSettings) {
    const orderId = order.id;
    const waiting = await tx
      .select({ productId: orderLines.productId, name: orderLines.productName })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, orderId), eq(orderLines.isPreOrder, true), isNull(orderLines.allocatedAt)));
    if (change.onlyIfWaitingFor !== undefined && !waiting.some((line) => line.productId === change.onlyIfWaitingFor)) return null;
    const events = await tx.select({ status: orderEvents.status }).from(orderEvents).where(eq(orderEvents.orderId, orderId));
    if (!nextStatuses({ status: order.status, events, waitingForStock: waiting.length > 0, onHold: order.heldReason !== null }).includes(to)) {
      if (order.status === 'cancelled' && to === 'refunded') throw new Conflict('This order was cancelled before it was paid: there is no payment to refund.');
      if (order.heldReason !== null && (to === 'packed' || to === 'shipped')) {
        throw new Conflict(`This order is on hold: ${order.heldReason}. Release the hold on its page once its boxes are in, or cancel it.`);
      }
      if (waiting.length && (to === 'packed' || to === 'shipped')) {
        throw new Conflict(`This order is still waiting for its pre-order boxes of ${waiting.map((line) => line.name).join(', ')}: record their shipment on Inventory first.`);
      }
      throw new Conflict(`An order that is ${orderStatusLabels[order.status].toLowerCase()} cannot be marked ${orderStatusLabels[to].toLowerCase()}.`);
    }
    // Boxes that will not be packed give their room on the dispatch day back (below, after stock, as placing locks).
    const releasesDay = (to === 'cancelled' || to === 'refunded') && order.dispatchDate !== null && order.deliveryBoxes > 0 && unsentOrderStatuses.includes(order.status);
    // A pickup order not yet ready gives its place on the pickup day back (one ready and waiting keeps it: the boxes are on the shelf).
    const releasesPickup = (to === 'cancelled' || to === 'refunded') && order.pickupBooked && order.deliveryDate !== null && unsentOrderStatuses.includes(order.status);
    const [updated] = await tx
      .update(orders)
      .set({
        status: to,
        updatedAt: sql`now()`,
        ...(releasesDay ? { deliveryBoxes: 0 } : {}),
        ...(releasesPickup ? { pickupBooked: false } : {}),
        ...(change.trackingNumber !== undefined ? { trackingNumber: change.trackingNumber } : {}),
        ...(change.carrier !== undefined ? { carrier: change.carrier } : {}),
      })
      .where(eq(orders.id, orderId))
      .returning();
    let given = { stockReturned: false, promoReturned: false };
    let refundedNowCents = 0;
    let cardRefund = false;
    if (to === 'packed') await packFromBatches(tx, updated!, change.actorUserId);
    const ripeness = to === 'shipped' ? await planReadyMail(tx, updated!, this.deps.clock(), this.deps.publicUrl) : undefined;
    if (to === 'delivered') await planReviewMail(tx, orderId, nzToday(this.deps.clock()));
    if (to === 'cancelled') given = await this.returnStock(tx, order, change.actorUserId, 'cancellation');
    // Packed boxes go back into the batches they were packed from.
    if ((to === 'cancelled' || to === 'refunded') && order.status === 'packed') await unpackIntoBatches(tx, order, change.actorUserId);
    if (to === 'refunded' && refundReturnsStockFrom.includes(order.status)) given = await this.returnStock(tx, order, change.actorUserId, 'refund');
    if (releasesDay && order.dispatchDate) await releaseDispatchDay(tx, order.dispatchDate, order.deliveryBoxes);
    if (releasesPickup && order.deliveryDate) await releasePickupDay(tx, order.deliveryDate);
    // Every refund is a money record (claims refund parts of orders too): what is left to give back.
    if (to === 'refunded') {
      const [given] = await tx.select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` }).from(refunds).where(eq(refunds.orderId, orderId));
      const owed = order.totalCents - Number(given?.cents ?? 0);
      const reason = change.refundReason ?? (change.note || 'Refund by staff');
      if (owed > 0) cardRefund = (await recordRefund(tx, order, { amountCents: owed, reason, actorUserId: change.actorUserId })).method === 'card';
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
    await this.queueStatusMail(tx, updated!, to, change.note ?? '', settings, refundedNowCents, ripeness);
    return { order: updated!, ...given, cardRefund };
  }

  /**
   * Gives back the order's boxes and promo use, locking rows in the order placing does (promo, then
   * products), and says whether the catalogue or the offers changed.
   */
  private async returnStock(tx: Tx, order: OrderRow, actorUserId: number | null, reason: StockMovementReason): Promise<{ stockReturned: boolean; promoReturned: boolean }> {
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
      // Boxes a recall took from the line (the order on hold for them) are not in the cool room to give back.
      const boxes = line.quantity - line.recalledBoxes;
      if (boxes === 0) {
        returned = true;
        continue;
      }
      const [product] = await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${boxes}`, updatedAt: sql`now()` })
        .where(eq(products.id, line.productId))
        .returning({ id: products.id });
      if (!product) continue;
      await tx.insert(stockMovements).values({ productId: line.productId, change: boxes, reason, orderId: order.id, actorUserId });
      returned = true;
    }
    return { stockReturned: returned, promoReturned: order.promoCodeId !== null };
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
    // A bank transfer is also due at its own pay-by (its packing day's cut-off), when that came first.
    const due = await this.deps.db
      .select({ id: orders.id, createdAt: orders.createdAt })
      .from(orders)
      .where(and(eq(orders.status, 'pending_payment'), or(lt(orders.createdAt, cutoff), lt(orders.payBy, now))))
      .orderBy(asc(orders.createdAt))
      .limit(200);
    let cancelled = 0;
    for (const { id, createdAt } of due) {
      if (stop?.aborted) break;
      const note = createdAt < cutoff ? `Not paid within ${days} day${days === 1 ? '' : 's'}` : 'Not paid before its packing day';
      // One order that cannot be settled now (Stripe unreachable, a payment processing) waits for the next sweep.
      const changed = await this.changeStatus(id, 'cancelled', { actorUserId: null, note, onlyFrom: 'pending_payment' }).catch((error: unknown) => {
        this.deps.log.warn({ err: error, orderId: id }, 'unpaid order not cancelled this time');
        return null;
      });
      if (changed) cancelled += 1;
    }
    return cancelled;
  }

  /** The customer's e-mail on paid, shipped, cancelled and refunded, queued with the change itself. */
  private async queueStatusMail(tx: Tx, order: OrderRow, status: OrderStatus, note: string, settings: StoredSettings, refundedNowCents: number, ripeness: ShippedRipeness | undefined): Promise<void> {
    if (status !== 'paid' && status !== 'shipped' && status !== 'cancelled' && status !== 'refunded') return;
    const [customer] = await tx.select().from(users).where(eq(users.id, order.userId));
    if (!customer) return;
    const context = this.orders.mailContext(customer, await orderView(tx, order, settings, Boolean(this.deps.stripe)), settings);
    await queueMail(
      tx,
      status === 'paid' ? paidMail(context) : status === 'shipped' ? shippedMail(context, ripeness) : status === 'refunded' ? refundedMail(context, refundedNowCents, refundMethodOf(order)) : cancelledMail(context, note ? `${note}.` : ''),
    );
  }
}

/** Locks, in the order a placement claims them, the promo codes and products a pair's cancel gives back. */
async function lockWhatPairReturns(tx: Tx, pair: OrderRow[]): Promise<void> {
  const promoIds = [...new Set(pair.flatMap((order) => (order.promoCodeId === null ? [] : [order.promoCodeId])))].sort((a, b) => a - b);
  if (promoIds.length) await tx.select({ id: promoCodes.id }).from(promoCodes).where(inArray(promoCodes.id, promoIds)).orderBy(asc(promoCodes.id)).for('update');
  const held = await tx
    .select({ productId: orderLines.productId })
    .from(orderLines)
    .where(and(inArray(orderLines.orderId, pair.map((order) => order.id)), or(eq(orderLines.isPreOrder, false), isNotNull(orderLines.allocatedAt))));
  const productIds = [...new Set(held.flatMap((line) => (line.productId === null ? [] : [line.productId])))].sort((a, b) => a - b);
  if (productIds.length) await tx.select({ id: products.id }).from(products).where(inArray(products.id, productIds)).orderBy(asc(products.id)).for('no key update');
}

/** The lines whose boxes the order holds on the shelf: in-stock lines, and pre-order lines served from a shipment. */
async function heldLines(tx: Tx, orderId: number) {
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.productId), asc(orderLines.id));
  return lines.filter((line) => line.productId !== null && (!line.isPreOrder || line.allocatedAt !== null));
}

/**
 * Packing takes the order's boxes out of the cool room, first expiring first out, and records the
 * batch each line's boxes came from (the packing slip and the order's staff view show it).
 */
async function packFromBatches(tx: Tx, order: OrderRow, actorUserId: number | null): Promise<void> {
  for (const line of await heldLines(tx, order.id)) {
    const taken = await takeFromBatches(tx, line.productId!, line.quantity, 'packed', { orderId: order.id, actorUserId, note: `Order ${order.number}` });
    await tx.insert(orderLineBatches).values(taken.map((part) => ({ orderLineId: line.id, batchId: part.batch.id, boxes: part.boxes })));
  }
}

/** A packed order cancelled or refunded before it left: its boxes go back into their batches. */
async function unpackIntoBatches(tx: Tx, order: OrderRow, actorUserId: number | null): Promise<void> {
  const context = { orderId: order.id, actorUserId, note: `Back from order ${order.number}` };
  for (const line of await heldLines(tx, order.id)) {
    await lockBatchesOf(tx, line.productId!);
    const parts = await takeBackPackedBatches(tx, line.id);
    // Packed before batches were recorded: the boxes come back as a batch of unknown dates.
    if (!parts.length) await receiveBatch(tx, { productId: line.productId!, boxes: line.quantity, note: context.note }, 'returned', context);
    for (const part of parts) await putBackIntoBatch(tx, part.batchId, part.boxes, 'returned', context);
  }
}
