import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  type AdminClaimDetail,
  type AdminClaimList,
  type ClaimApproval,
  claimReasonLabels,
  type ClaimRequest,
  type ClaimStatus,
  claimStatuses,
  type ClaimView,
  type OrderClaims,
  openClaimStatuses,
} from '../../../contracts/claims';
import { formatDateTime } from '../../../contracts/dates';
import { centsToDollars, dollarsToCents, formatNzd } from '../../../contracts/money';
import type { StoredSettings } from '../../../contracts/settings';
import type { Db, Tx } from '../../db/client';
import { claimLines, claimPhotos, claims, orderEvents, orderLines, orders, products, refunds, stockMovements, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { BadRequest, Conflict, fieldError, isUniqueViolation, NotFound } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { queueMail } from '../../lib/mail-outbox';
import type { UserRow } from '../auth/user-view';
import type { MailContext } from '../orders/mail';
import type { OrderService } from '../orders/service';
import { type OrderRow, orderView } from '../orders/view';
import type { SettingsService } from '../settings/service';
import { type ClaimMailFacts, claimDeclinedMail, claimInReviewMail, claimReceivedMail, claimRefundedMail, claimReplacedMail } from './mail';

type ClaimRow = typeof claims.$inferSelect;
type OrderLineRow = typeof orderLines.$inferSelect;

export interface ClaimActor {
  userId: number;
  requestId: string;
}

export interface ClaimDeps {
  db: Db;
  settings: SettingsService;
  orders: OrderService;
  bus: CacheBus;
  publicUrl: string;
}

const hourMs = 60 * 60 * 1000;
const boxesText = (boxes: number) => `${boxes} ${boxes === 1 ? 'box' : 'boxes'}`;
const isOpen = (status: ClaimStatus) => openClaimStatuses.includes(status);
export const claimPhotoUrl = (claimId: number, position: number) => `/api/claims/${claimId}/photos/${position}`;

/**
 * Freshness claims (decision 0018). Every change locks the claim's order first and the claim
 * second, so a claim made while staff decide another on the same order, or two staff deciding one
 * claim, queue: one open claim per order line, one decision per claim, one refund or replacement.
 */
export class ClaimService {
  constructor(private readonly deps: ClaimDeps) {}

  /** The shopper's claims on their order, and what they may claim now. */
  async forOrder(user: UserRow, number: string): Promise<OrderClaims> {
    const order = await this.deps.orders.findFor(user, number);
    return this.orderClaims(this.deps.db, order, Date.now());
  }

  /**
   * Whether this claim may be made now, checked before its photos are processed (and again, under
   * the order's lock, when it is recorded). Throws the shopper's reason when not.
   */
  /** The shopper's order when a claim may be made on it now: asked before any of the form is read. */
  async claimableOrder(user: UserRow, number: string): Promise<OrderRow> {
    const order = await this.deps.orders.findFor(user, number);
    const settings = await this.deps.settings.stored();
    const window = await windowOf(this.deps.db, order, settings.claimWindowHours, settings.contact.email, Date.now());
    if (window.closedReason) throw new Conflict(window.closedReason);
    return order;
  }

  /** The boxes the claim names can be claimed: asked before its photos are read. */
  async checkCanClaim(order: OrderRow, request: ClaimRequest): Promise<void> {
    await this.checkAgainst(this.deps.db, order, request, Date.now(), await this.deps.settings.stored());
  }

  /** Records the claim with its photos (already re-encoded), e-mails the shopper, and answers it. */
  async create(user: UserRow, found: OrderRow, request: ClaimRequest, photos: Buffer[], requestId: string): Promise<ClaimView> {
    const settings = await this.deps.settings.stored();
    try {
      return await this.deps.db.transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, found.id)).for('update');
        if (!order) throw new NotFound('Order not found');
        const lines = await this.checkAgainst(tx, order, request, Date.now(), settings);
        const [claim] = await tx
          .insert(claims)
          .values({ orderId: order.id, userId: user.id, reason: request.reason, description: request.description, outcome: request.outcome })
          .returning();
        await tx.insert(claimLines).values(request.lines.map((line) => ({ claimId: claim!.id, orderLineId: line.lineId, quantity: line.quantity })));
        await tx.insert(claimPhotos).values(photos.map((bytes, index) => ({ claimId: claim!.id, position: index + 1, contentType: 'image/jpeg', bytes })));
        const facts = factsOf(claim!, request.lines.map((line) => ({ name: lines.get(line.lineId)!.productName, quantity: line.quantity })));
        const boxes = request.lines.reduce((sum, line) => sum + line.quantity, 0);
        await recordAudit(tx, {
          actorUserId: user.id,
          action: 'claim.created',
          entity: 'claim',
          entityId: claim!.id,
          after: { order: order.number, reason: request.reason, outcome: request.outcome, lines: request.lines, photos: photos.length },
          requestId,
        });
        const note = `Problem reported (claim #${claim!.id}): ${boxesText(boxes)}, ${claimReasonLabels[request.reason].toLowerCase()}`;
        await this.tellShopper(tx, order, user.id, note, (context) => claimReceivedMail(context, facts), settings);
        return (await this.claimViews(tx, [claim!]))[0]!;
      });
    } catch (error) {
      // The order's lock makes this rare: a line claimed by another request of the same moment.
      if (isUniqueViolation(error, 'claim_lines_open_per_line_key')) throw new Conflict('A box you chose already has an open claim: we will e-mail you when it is decided.');
      throw error;
    }
  }

  /** A claim photo, for its shopper or staff; anyone else finds nothing. */
  async photo(user: UserRow, claimId: number, position: number): Promise<Buffer> {
    const [row] = await this.deps.db
      .select({ userId: claims.userId, bytes: claimPhotos.bytes })
      .from(claimPhotos)
      .innerJoin(claims, eq(claims.id, claimPhotos.claimId))
      .where(and(eq(claimPhotos.claimId, claimId), eq(claimPhotos.position, position)));
    if (!row || (row.userId !== user.id && !user.isAdmin)) throw new NotFound('Photo not found');
    return row.bytes;
  }

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
    const [view] = await this.claimViews(db, [claim]);
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
    return {
      ...view!,
      order: {
        number: order!.number,
        status: order!.status,
        total: centsToDollars(order!.totalCents),
        refunded: centsToDollars(await refundedCents(db, order!.id)),
        deliveredAt: (await deliveredAtOf(db, order!.id))?.toISOString() ?? null,
        placedAt: order!.createdAt.toISOString(),
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
    const answer = await this.change(claimId, async (tx, claim, order, facts, settings) => {
      const decided = { status: 'approved' as const, resolution: approval.resolution, decidedAt: sql`now()`, decidedBy: actor.userId };
      if (approval.resolution === 'refund') {
        const amountCents = dollarsToCents(approval.amount);
        const limit = await refundLimitCents(tx, order, claim.id);
        if (limit === 0) throw new Conflict('Nothing is left to refund for these boxes: approve a replacement or decline the claim.');
        if (amountCents > limit) throw fieldError('amount', `The refund can be at most ${formatNzd(limit)}: what was paid for these boxes, less refunds already given on the order.`);
        const [refund] = await tx
          .insert(refunds)
          .values({ orderId: order.id, amountCents, reason: `Claim #${claim.id}: ${claimReasonLabels[claim.reason].toLowerCase()}`, actorUserId: actor.userId })
          .returning();
        await tx.update(claims).set({ ...decided, refundId: refund!.id }).where(eq(claims.id, claim.id));
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
          (context) => claimRefundedMail(context, facts, amountCents, approval.note),
        );
        return;
      }
      const replacement = await this.placeReplacement(tx, claim, order, actor);
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
  private async placeReplacement(tx: Tx, claim: ClaimRow, order: OrderRow, actor: ClaimActor): Promise<OrderRow> {
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
    const [replacement] = await tx
      .insert(orders)
      .values({
        userId: order.userId,
        status: 'paid',
        paymentMethod: 'no_charge',
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
    await this.tellShopper(tx, order, actor.userId, note, mail, settings);
  }

  private async tellShopper(tx: Tx, order: OrderRow, actorUserId: number, note: string, mail: (context: MailContext) => MailMessage, settings: StoredSettings) {
    await tx.insert(orderEvents).values({ orderId: order.id, status: order.status, note, actorUserId });
    const [shopper] = await tx.select().from(users).where(eq(users.id, order.userId));
    if (!shopper) return;
    const view = await orderView(tx, order, settings, false);
    await queueMail(tx, mail(this.deps.orders.mailContext(shopper, view, settings)));
  }

  private async find(db: Db | Tx, claimId: number): Promise<ClaimRow> {
    const [claim] = await db.select().from(claims).where(eq(claims.id, claimId));
    if (!claim) throw new NotFound('Claim not found');
    return claim;
  }

  /** The order's claims and claimable lines, with the window as it stands at `now`. */
  private async orderClaims(db: Db | Tx, order: OrderRow, now: number): Promise<OrderClaims> {
    const settings = await this.deps.settings.stored();
    const window = await windowOf(db, order, settings.claimWindowHours, settings.contact.email, now);
    const lines = await claimableLines(db, order.id);
    const rows = await db.select().from(claims).where(eq(claims.orderId, order.id)).orderBy(desc(claims.createdAt), desc(claims.id));
    return {
      closedReason: window.closedReason,
      windowClosesAt: window.closesAt?.toISOString() ?? null,
      windowHours: settings.claimWindowHours,
      lines: lines.map(({ line, claimable }) => ({ lineId: line.id, name: line.productName, quantity: line.quantity, claimable })),
      claims: await this.claimViews(db, rows),
    };
  }

  /** Refuses a claim outside the window, on lines not of this order, or on boxes already claimed. */
  private async checkAgainst(db: Db | Tx, order: OrderRow, request: ClaimRequest, now: number, settings: StoredSettings): Promise<Map<number, OrderLineRow>> {
    const window = await windowOf(db, order, settings.claimWindowHours, settings.contact.email, now);
    if (window.closedReason) throw new Conflict(window.closedReason);
    const lines = new Map((await claimableLines(db, order.id)).map((entry) => [entry.line.id, entry]));
    for (const wanted of request.lines) {
      const entry = lines.get(wanted.lineId);
      if (!entry) throw new BadRequest('Choose boxes from this order', { lines: 'Choose boxes from this order' });
      if (entry.open) throw new Conflict(`${entry.line.productName} already has an open claim: we will e-mail you when it is decided.`, { lines: `${entry.line.productName} already has an open claim` });
      if (wanted.quantity > entry.claimable) {
        const message =
          entry.claimable === 0
            ? `Every box of ${entry.line.productName} has already been claimed. Please contact us if something is still wrong.`
            : `Only ${boxesText(entry.claimable)} of ${entry.line.productName} can still be claimed.`;
        throw new BadRequest(message, { lines: message });
      }
    }
    return new Map([...lines].map(([id, entry]) => [id, entry.line]));
  }

  private async claimViews(db: Db | Tx, rows: ClaimRow[]): Promise<ClaimView[]> {
    if (!rows.length) return [];
    const ids = rows.map((row) => row.id);
    const [lines, photos, replacements, given] = await Promise.all([
      db
        .select({ claimId: claimLines.claimId, lineId: claimLines.orderLineId, name: orderLines.productName, quantity: claimLines.quantity, unitPriceCents: orderLines.unitPriceCents })
        .from(claimLines)
        .innerJoin(orderLines, eq(orderLines.id, claimLines.orderLineId))
        .where(inArray(claimLines.claimId, ids))
        .orderBy(asc(claimLines.id)),
      db.select({ claimId: claimPhotos.claimId, position: claimPhotos.position }).from(claimPhotos).where(inArray(claimPhotos.claimId, ids)).orderBy(asc(claimPhotos.position)),
      db.select({ id: orders.id, number: orders.number }).from(orders).where(inArray(orders.id, rows.map((row) => row.replacementOrderId ?? 0))),
      db.select({ id: refunds.id, amountCents: refunds.amountCents }).from(refunds).where(inArray(refunds.id, rows.map((row) => row.refundId ?? 0))),
    ]);
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      reason: row.reason,
      description: row.description,
      outcome: row.outcome,
      lines: lines.filter((line) => line.claimId === row.id).map((line) => ({ lineId: line.lineId, name: line.name, quantity: line.quantity, unitPrice: centsToDollars(line.unitPriceCents) })),
      photoUrls: photos.filter((photo) => photo.claimId === row.id).map((photo) => claimPhotoUrl(row.id, photo.position)),
      createdAt: row.createdAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      refund: (() => {
        const refund = given.find((one) => one.id === row.refundId);
        return refund ? centsToDollars(refund.amountCents) : null;
      })(),
      replacementOrderNumber: replacements.find((one) => one.id === row.replacementOrderId)?.number ?? null,
      declineReason: row.declineReason,
    }));
  }
}

function factsOf(claim: ClaimRow, lines: Array<{ name: string; quantity: number }>): ClaimMailFacts {
  return { id: claim.id, reason: claim.reason, lines };
}

/** When the order was first marked delivered; the window runs from then. */
async function deliveredAtOf(db: Db | Tx, orderId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: orderEvents.createdAt })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.status, 'delivered')))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id))
    .limit(1);
  return row?.at ?? null;
}

/** Whether a claim may be made on the order at `now`, and when its window closes. */
async function windowOf(db: Db | Tx, order: OrderRow, hours: number, contactEmail: string, now: number): Promise<{ closedReason: string | null; closesAt: Date | null }> {
  const deliveredAt = order.status === 'delivered' ? await deliveredAtOf(db, order.id) : null;
  if (!deliveredAt) {
    const closedReason =
      order.status === 'cancelled'
        ? 'This order was cancelled, so there is nothing to report a problem with.'
        : order.status === 'refunded'
          ? 'This order has been refunded. Please contact us if something is still wrong.'
          : 'You can report a problem once your order has been delivered.';
    return { closedReason, closesAt: null };
  }
  const closesAt = new Date(deliveredAt.getTime() + hours * hourMs);
  if (now > closesAt.getTime()) {
    return {
      closedReason: `The ${hours}-hour window to report a problem with this order closed on ${formatDateTime(closesAt)}. Please contact us at ${contactEmail}.`,
      closesAt,
    };
  }
  return { closedReason: null, closesAt };
}

/**
 * Each line of the order with the boxes that may still be claimed: boxes of decided claims are
 * not claimed again, and a line with an open claim has none to claim until it is decided.
 */
async function claimableLines(db: Db | Tx, orderId: number): Promise<Array<{ line: OrderLineRow; claimable: number; open: boolean }>> {
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id));
  const claimed = lines.length
    ? await db
        .select({ orderLineId: claimLines.orderLineId, quantity: claimLines.quantity, open: claimLines.open })
        .from(claimLines)
        .where(inArray(claimLines.orderLineId, lines.map((line) => line.id)))
    : [];
  return lines.map((line) => {
    const mine = claimed.filter((one) => one.orderLineId === line.id);
    const open = mine.some((one) => one.open);
    const used = mine.reduce((sum, one) => sum + one.quantity, 0);
    return { line, open, claimable: open ? 0 : Math.max(line.quantity - used, 0) };
  });
}

async function refundedCents(db: Db | Tx, orderId: number): Promise<number> {
  const [given] = await db.select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` }).from(refunds).where(eq(refunds.orderId, orderId));
  return Number(given?.cents ?? 0);
}

/**
 * The most a claim's refund may be: what was paid for its boxes (their price less their share of
 * the order's discount, rounded in the shop's favour), and never more than is left unrefunded on
 * the order.
 */
async function refundLimitCents(db: Db | Tx, order: OrderRow, claimId: number): Promise<number> {
  const lines = await db
    .select({ unitPriceCents: orderLines.unitPriceCents, quantity: claimLines.quantity })
    .from(claimLines)
    .innerJoin(orderLines, eq(orderLines.id, claimLines.orderLineId))
    .where(eq(claimLines.claimId, claimId));
  const value = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const discountShare = order.subtotalCents > 0 ? Math.ceil((value * order.discountCents) / order.subtotalCents) : 0;
  const left = order.totalCents - (await refundedCents(db, order.id));
  return Math.max(Math.min(value - discountShare, left), 0);
}

