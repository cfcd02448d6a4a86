import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type AdminClaimDetail, type AdminClaimList, type ClaimApproval, claimReasonLabels, type ClaimStatus, claimStatuses, openClaimStatuses } from '../../../contracts/claims';
import { centsToDollars, dollarsToCents, formatNzd } from '../../../contracts/money';
import type { StoredSettings } from '../../../contracts/settings';
import type { Db, Tx } from '../../db/client';
import { claimLines, claimPhotos, claims, orderEvents, orderLines, orders, products, stockMovements, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { Conflict, fieldError, NotFound } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { queueMail } from '../../lib/mail-outbox';
import type { MailContext } from '../orders/mail';
import type { OrderService } from '../orders/service';
import { type OrderRow, orderView } from '../orders/view';
import { claimedBatchesOf } from './claim-batches';
import { recordRefund, refundMethodOf } from '../orders/refunds';
import { boxesText, type ClaimRow, claimViews, deliveredAtOf, factsOf, refundedCents, refundLimitCents } from './claim-reads';
import { type ClaimMailFacts, claimDeclinedMail, claimInReviewMail, claimRefundedMail, claimReplacedMail } from './mail';
import type { DeliverySettings } from '../../../contracts/delivery';
import { hoursText } from '../../../contracts/pickup';
import { bookPickupDay, newPickupCode, pickupDates } from '../delivery/pickup';
import type { ClaimActor, ClaimDeps } from './service';

const isOpen = (status: ClaimStatus) => openClaimStatuses.includes(status);

/**
 * The staff's side of claims: the queue, one claim as staff decide it, and the decisions. Each
 * decision locks the claim's order first and the claim second (see ClaimService).
 */
export class ClaimDecisions {
  constructor(private readonly deps: ClaimDeps) {}

  /** The staff queue: open claims oldest first (first come, first served), decided ones newest first. */
  async queue(status: ClaimStatus | 'open' | 'all'): Promise<AdminClaimList> {
    const { db } = this.deps;
    const wanted = status === 'all' ? [...claimStatuses] : status === 'open' ? [...openClaimStatuses] : [status];
    const decided = wanted.every((one) => !isOpen(one));
    const rows = await db
      .select({
        claim: claims,
        orderNumber: orders.number,
        firstName: users.firstName,
        lastName: users.lastName,
        boxes: sql<number>`(select coalesce(sum(${claimLines.quantity}), 0)::int from ${claimLines} where ${claimLines.claimId} = ${claims.id})`,
        photoCount: sql<number>`(select count(*)::int from ${claimPhotos} where ${claimPhotos.claimId} = ${claims.id})`,
      })
      .from(claims)
      .innerJoin(orders, eq(orders.id, claims.orderId))
      .innerJoin(users, eq(users.id, claims.userId))
      .where(inArray(claims.status, wanted))
      .orderBy(decided ? desc(claims.createdAt) : asc(claims.createdAt), decided ? desc(claims.id) : asc(claims.id))
      .limit(200);
    const counted = await db.select({ status: claims.status, count: sql<number>`count(*)::int` }).from(claims).groupBy(claims.status);
    const counts = Object.fromEntries(claimStatuses.map((one) => [one, 0])) as Record<ClaimStatus, number>;
    for (const row of counted) counts[row.status] = Number(row.count);
    return {
      counts,
      claims: rows.map((row) => ({
        id: row.claim.id,
        status: row.claim.status,
        reason: row.claim.reason,
        outcome: row.claim.outcome,
        orderNumber: row.orderNumber,
        customer: `${row.firstName} ${row.lastName}`.trim(),
        boxes: Number(row.boxes),
        photoCount: Number(row.photoCount),
        createdAt: row.claim.createdAt.toISOString(),
      })),
    };
  }

  /** One claim as staff decide it; `db` is the transaction's handle when a decision answers with it. */
  async staffView(claimId: number, db: Db | Tx = this.deps.db): Promise<AdminClaimDetail> {
    const claim = await this.find(db, claimId);
    const [order] = await db.select().from(orders).where(eq(orders.id, claim.orderId));
    const [customer] = await db.select().from(users).where(eq(users.id, claim.userId));
    const [view] = await claimViews(db, [claim]);
    const earlier = await db
      .select({ id: claims.id, orderNumber: orders.number, status: claims.status, reason: claims.reason, createdAt: claims.createdAt })
      .from(claims)
      .innerJoin(orders, eq(orders.id, claims.orderId))
      .where(and(eq(claims.userId, claim.userId), ne(claims.id, claim.id)))
      .orderBy(desc(claims.createdAt), desc(claims.id))
      .limit(20);
    const staffIds = [claim.reviewedBy, claim.decidedBy].filter((id): id is number => id !== null);
    const staff = staffIds.length ? await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, staffIds)) : [];
    const nameOf = (id: number | null) => {
      const person = staff.find((one) => one.id === id);
      return person ? `${person.firstName} ${person.lastName}`.trim() : null;
    };
    const limit = await refundLimitCents(db, order!, claim.id);
    const stock = await db
      .select({ name: orderLines.productName, wanted: claimLines.quantity, inStock: sql<number>`coalesce(${products.stock}, 0)::int` })
      .from(claimLines)
      .innerJoin(orderLines, eq(orderLines.id, claimLines.orderLineId))
      .leftJoin(products, and(eq(products.id, orderLines.productId), sql`${products.archivedAt} is null`))
      .where(eq(claimLines.claimId, claim.id))
      .orderBy(asc(claimLines.id));
    const batches = await claimedBatchesOf(db, claim.id);
    return {
      ...view!,
      lines: view!.lines.map((line) => ({ ...line, batches: batches.get(line.lineId) ?? [] })),
      order: {
        number: order!.number,
        status: order!.status,
        total: centsToDollars(order!.totalCents),
        refunded: centsToDollars(await refundedCents(db, order!.id)),
        deliveredAt: (await deliveredAtOf(db, order!.id))?.toISOString() ?? null,
        placedAt: order!.createdAt.toISOString(),
        refundBy: refundMethodOf(order!),
      },
      customer: { id: claim.userId, name: `${customer?.firstName ?? ''} ${customer?.lastName ?? ''}`.trim(), email: customer?.email ?? '' },
      earlierClaims: earlier.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
      refundLimit: centsToDollars(limit),
      stockForReplacement: stock.map((row) => ({ name: row.name, wanted: row.wanted, inStock: Number(row.inStock) })),
      reviewedBy: nameOf(claim.reviewedBy),
      decidedBy: nameOf(claim.decidedBy),
    };
  }

  /** A staff member takes a new claim into review; the shopper hears that someone is on it. */
  async startReview(claimId: number, actor: ClaimActor): Promise<AdminClaimDetail> {
    return this.change(claimId, async (tx, claim, order, facts, settings) => {
      if (claim.status === 'in_review') return;
      await tx.update(claims).set({ status: 'in_review', reviewedAt: sql`now()`, reviewedBy: actor.userId }).where(eq(claims.id, claim.id));
      await this.record(tx, settings, actor, claim, order, 'claim.in_review', { status: 'in_review' }, `Claim #${claim.id} is being reviewed`, (context) => claimInReviewMail(context, facts));
    });
  }

  /**
   * Approves a claim: a refund of the chosen amount (never more than was paid for the claimed
   * boxes, less refunds already given on the order), or a replacement order at no charge that
   * takes its boxes from stock like any order.
   */
  async approve(claimId: number, approval: ClaimApproval, actor: ClaimActor): Promise<AdminClaimDetail> {
    let stockTaken = false;
    let refundedOrderId: number | null = null;
    // Read before the transaction opens, as the shop's settings are: a pickup order's replacement books a pickup day.
    const delivery = approval.resolution === 'replacement' ? await this.deps.delivery.settings() : null;
    const answer = await this.change(claimId, async (tx, claim, order, facts, settings) => {
      const decided = { status: 'approved' as const, resolution: approval.resolution, decidedAt: sql`now()`, decidedBy: actor.userId };
      if (approval.resolution === 'refund') {
        const amountCents = dollarsToCents(approval.amount);
        const limit = await refundLimitCents(tx, order, claim.id);
        if (limit === 0) throw new Conflict('Nothing is left to refund for these boxes: approve a replacement or decline the claim.');
        if (amountCents > limit) throw fieldError('amount', `The refund can be at most ${formatNzd(limit)}: what was paid for these boxes, less refunds already given on the order.`);
        const refund = await recordRefund(tx, order, { amountCents, reason: `Claim #${claim.id}: ${claimReasonLabels[claim.reason].toLowerCase()}`, actorUserId: actor.userId });
        if (refund.method === 'card') refundedOrderId = order.id;
        await tx.update(claims).set({ ...decided, refundId: refund.id }).where(eq(claims.id, claim.id));
        await tx.update(claimLines).set({ open: false }).where(eq(claimLines.claimId, claim.id));
        // The boxes were delivered, so they left stock when the order was placed: they are written
        // off on the claim (its lines), and stock, the sum of its movements, is not touched.
        await this.record(
          tx,
          settings,
          actor,
          claim,
          order,
          'claim.approved',
          { status: 'approved', resolution: 'refund', refundCents: amountCents, writtenOff: facts.lines, note: approval.note },
          `Claim #${claim.id} approved: refund of ${formatNzd(amountCents)}`,
          (context) => claimRefundedMail(context, facts, amountCents, approval.note, refund.method),
        );
        return;
      }
      const replacement = await this.placeReplacement(tx, claim, order, actor, delivery!);
      stockTaken = true;
      await tx.update(claims).set({ ...decided, replacementOrderId: replacement.id }).where(eq(claims.id, claim.id));
      await tx.update(claimLines).set({ open: false }).where(eq(claimLines.claimId, claim.id));
      const replacementUrl = `${this.deps.publicUrl}/account/orders/${replacement.number}`;
      await this.record(
        tx,
        settings,
        actor,
        claim,
        order,
        'claim.approved',
        { status: 'approved', resolution: 'replacement', replacementOrder: replacement.number, note: approval.note },
        `Claim #${claim.id} approved: replacement order ${replacement.number}`,
        (context) => claimReplacedMail(context, facts, replacement.number, replacementUrl, approval.note),
      );
    });
    if (stockTaken) await this.deps.bus.publish('products');
    // A card refund goes to Stripe once the approval is committed.
    if (refundedOrderId !== null) await this.deps.orders.refunds.sendCardRefundsSoon({ orderId: refundedOrderId });
    return answer;
  }

  /** Declines a claim with the reason the shopper reads. */
  async decline(claimId: number, reason: string, actor: ClaimActor): Promise<AdminClaimDetail> {
    return this.change(claimId, async (tx, claim, order, facts, settings) => {
      await tx.update(claims).set({ status: 'declined', declineReason: reason, decidedAt: sql`now()`, decidedBy: actor.userId }).where(eq(claims.id, claim.id));
      await tx.update(claimLines).set({ open: false }).where(eq(claimLines.claimId, claim.id));
      await this.record(tx, settings, actor, claim, order, 'claim.declined', { status: 'declined', reason }, `Claim #${claim.id} declined`, (context) => claimDeclinedMail(context, facts, reason));
    });
  }

  /**
   * Runs a staff step on an open claim in one transaction: its order is locked first, then the
   * claim, and the claim's status is checked under the lock, so a second decision is refused.
   */
  private async change(claimId: number, step: (tx: Tx, claim: ClaimRow, order: OrderRow, facts: ClaimMailFacts, settings: StoredSettings) => Promise<void>): Promise<AdminClaimDetail> {
    const { db } = this.deps;
    const known = await this.find(db, claimId);
    // Read before the transaction opens: a cold cache would otherwise reach past the transaction's handle.
    const settings = await this.deps.settings.stored();
    return db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, known.orderId)).for('update');
      const [claim] = await tx.select().from(claims).where(eq(claims.id, claimId)).for('update');
      if (!order || !claim) throw new NotFound('Claim not found');
      if (!isOpen(claim.status)) throw new Conflict(`Claim #${claim.id} has already been ${claim.status}.`);
      const lines = await tx
        .select({ name: orderLines.productName, quantity: claimLines.quantity })
        .from(claimLines)
        .innerJoin(orderLines, eq(orderLines.id, claimLines.orderLineId))
        .where(eq(claimLines.claimId, claim.id))
        .orderBy(asc(claimLines.id));
      await step(tx, claim, order, factsOf(claim, lines), settings);
      // The answer is read before the commit: once the decision is made, nothing after it can fail the request.
      return this.staffView(claimId, tx);
    });
  }

  /**
   * The replacement: a paid order at no charge to the same address, its boxes taken from stock
   * with `stock = stock - n where stock >= n` in product order (as placing an order does).
   */
  private async placeReplacement(tx: Tx, claim: ClaimRow, order: OrderRow, actor: ClaimActor, delivery: DeliverySettings): Promise<OrderRow> {
    const wanted = await tx
      .select({ productId: orderLines.productId, name: orderLines.productName, quantity: claimLines.quantity })
      .from(claimLines)
      .innerJoin(orderLines, eq(orderLines.id, claimLines.orderLineId))
      .where(eq(claimLines.claimId, claim.id))
      .orderBy(asc(orderLines.productId));
    for (const line of wanted) {
      const [product] = line.productId === null ? [] : await tx.select().from(products).where(eq(products.id, line.productId));
      if (!product || product.archivedAt) throw new Conflict(`${line.name} is no longer sold, so it cannot be replaced: approve a refund instead.`);
      const [taken] = await tx
        .update(products)
        .set({ stock: sql`${products.stock} - ${line.quantity}`, updatedAt: sql`now()` })
        .where(and(eq(products.id, product.id), sql`${products.stock} >= ${line.quantity}`))
        .returning({ id: products.id });
      if (!taken) {
        const [now] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, product.id));
        throw new Conflict(`Only ${boxesText(now?.stock ?? 0)} of ${line.name} ${now?.stock === 1 ? 'is' : 'are'} in stock, and the replacement needs ${line.quantity}: add stock on Inventory first, or approve a refund instead.`);
      }
    }
    // Collected from the shop before: the replacement is collected too, on the soonest free pickup day.
    let pickup: { date: string; hours: string } | null = null;
    if (order.fulfilment === 'pickup') {
      const now = this.deps.delivery.clock();
      const free = (await pickupDates(tx, delivery, now)).find((day) => day.state.available);
      if (!free) throw new Conflict('No pickup day is free for the replacement (or pickup is off): approve a refund instead, or free a pickup day first.');
      await bookPickupDay(tx, delivery, free.date, now);
      pickup = { date: free.date, hours: hoursText(free.hours) };
    }
    const [replacement] = await tx
      .insert(orders)
      .values({
        userId: order.userId,
        status: 'paid',
        paymentMethod: 'no_charge',
        // A gift's replacement goes to the same person, with the same message and no prices.
        giftMessage: order.giftMessage,
        fulfilment: order.fulfilment,
        ...(pickup ? { pickupCode: newPickupCode(), pickupAddress: delivery.pickup.address, pickupHours: pickup.hours, pickupBooked: true, deliveryDate: pickup.date } : {}),
        subtotalCents: 0,
        shippingCents: 0,
        discountCents: 0,
        totalCents: 0,
        gstCents: 0,
        shipName: order.shipName,
        shipPhone: order.shipPhone,
        shipStreet: order.shipStreet,
        shipSuburb: order.shipSuburb,
        shipCity: order.shipCity,
        shipPostcode: order.shipPostcode,
        shipRegion: order.shipRegion,
        deliveryInstructions: order.deliveryInstructions,
        idempotencyKey: `claim-${claim.id}`,
      })
      .returning();
    const id = replacement!.id;
    await tx.insert(orderLines).values(wanted.map((line) => ({ orderId: id, productId: line.productId, productName: line.name, unitPriceCents: 0, quantity: line.quantity })));
    await tx
      .insert(stockMovements)
      .values(wanted.map((line) => ({ productId: line.productId!, change: -line.quantity, reason: 'order' as const, orderId: id, actorUserId: actor.userId, note: `Replacement for claim #${claim.id}` })));
    await tx.insert(orderEvents).values([
      { orderId: id, status: 'pending_payment', note: `Replacement for order ${order.number} (claim #${claim.id})`, actorUserId: actor.userId },
      { orderId: id, status: 'paid', note: 'No charge', actorUserId: actor.userId },
    ]);
    return replacement!;
  }

  /** A step's record: on the order's timeline (its status unchanged), in the audit log, and in the shopper's mail. */
  private async record(tx: Tx, settings: StoredSettings, actor: ClaimActor, claim: ClaimRow, order: OrderRow, action: string, after: object, note: string, mail: (context: MailContext) => MailMessage) {
    await recordAudit(tx, { actorUserId: actor.userId, action, entity: 'claim', entityId: claim.id, before: { status: claim.status }, after: { order: order.number, ...after }, requestId: actor.requestId });
    await tellShopper(tx, this.deps.orders, order, actor.userId, note, mail, settings);
  }

  private async find(db: Db | Tx, claimId: number): Promise<ClaimRow> {
    const [claim] = await db.select().from(claims).where(eq(claims.id, claimId));
    if (!claim) throw new NotFound('Claim not found');
    return claim;
  }
}

/** A claim's step on the order's timeline (its status unchanged) and in the shopper's mail. */
export async function tellShopper(tx: Tx, orderService: OrderService, order: OrderRow, actorUserId: number, note: string, mail: (context: MailContext) => MailMessage, settings: StoredSettings) {
  await tx.insert(orderEvents).values({ orderId: order.id, status: order.status, note, actorUserId });
  const [shopper] = await tx.select().from(users).where(eq(users.id, order.userId));
  if (!shopper) return;
  const view = await orderView(tx, order, settings, false);
  await queueMail(tx, mail(orderService.mailContext(shopper, view, settings)));
}
