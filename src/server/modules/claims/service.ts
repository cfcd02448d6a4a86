import { and, desc, eq } from 'drizzle-orm';
import { type AdminClaimDetail, type AdminClaimList, type ClaimApproval, claimReasonLabels, type ClaimRequest, type ClaimStatus, type ClaimView, type OrderClaims } from '../../../contracts/claims';
import type { StoredSettings } from '../../../contracts/settings';
import type { Db, Tx } from '../../db/client';
import { claimLines, claimPhotos, claims, orders } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { BadRequest, Conflict, isUniqueViolation, NotFound } from '../../lib/errors';
import type { UserRow } from '../auth/user-view';
import type { OrderService } from '../orders/service';
import type { OrderRow } from '../orders/view';
import type { SettingsService } from '../settings/service';
import { recordClaimBatches } from './claim-batches';
import { boxesText, claimableLines, claimViews, factsOf, type OrderLineRow, windowOf } from './claim-reads';
import { ClaimDecisions, tellShopper } from './decisions';
import type { DeliveryService } from '../delivery/service';
import { claimReceivedMail } from './mail';

export { claimPhotoUrl } from './claim-reads';

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
  /** A pickup order's replacement is collected too: it books the soonest free pickup day. */
  delivery: DeliveryService;
}

/**
 * Freshness claims (decision 0018). Every change locks the claim's order first and the claim
 * second, so a claim made while staff decide another on the same order, or two staff deciding one
 * claim, queue: one open claim per order line, one decision per claim, one refund or replacement.
 */
export class ClaimService {
  private readonly decisions: ClaimDecisions;

  constructor(private readonly deps: ClaimDeps) {
    this.decisions = new ClaimDecisions(deps);
  }

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
        const recorded = await tx
          .insert(claimLines)
          .values(request.lines.map((line) => ({ claimId: claim!.id, orderLineId: line.lineId, quantity: line.quantity })))
          .returning({ id: claimLines.id, orderLineId: claimLines.orderLineId, quantity: claimLines.quantity });
        await recordClaimBatches(tx, recorded);
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
        await tellShopper(tx, this.deps.orders, order, user.id, note, (context) => claimReceivedMail(context, facts), settings);
        return (await claimViews(tx, [claim!]))[0]!;
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

  /** The staff queue: open claims oldest first, decided ones newest first. */
  async queue(status: ClaimStatus | 'open' | 'all'): Promise<AdminClaimList> {
    return this.decisions.queue(status);
  }

  /** One claim as staff decide it; `db` is the transaction's handle when a decision answers with it. */
  async staffView(claimId: number, db: Db | Tx = this.deps.db): Promise<AdminClaimDetail> {
    return this.decisions.staffView(claimId, db);
  }

  /** A staff member takes a new claim into review; the shopper hears that someone is on it. */
  async startReview(claimId: number, actor: ClaimActor): Promise<AdminClaimDetail> {
    return this.decisions.startReview(claimId, actor);
  }

  /** Approves a claim with a refund or a replacement order (ClaimDecisions.approve has the limits). */
  async approve(claimId: number, approval: ClaimApproval, actor: ClaimActor): Promise<AdminClaimDetail> {
    return this.decisions.approve(claimId, approval, actor);
  }

  /** Declines a claim with the reason the shopper reads. */
  async decline(claimId: number, reason: string, actor: ClaimActor): Promise<AdminClaimDetail> {
    return this.decisions.decline(claimId, reason, actor);
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
      claims: await claimViews(db, rows),
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
}
