import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ClaimView } from '../../../contracts/claims';
import { formatDateTime } from '../../../contracts/dates';
import { centsToDollars } from '../../../contracts/money';
import type { Db, Tx } from '../../db/client';
import type { claims } from '../../db/schema';
import { claimLines, claimPhotos, orderEvents, orderLines, orders, refunds } from '../../db/schema';
import type { OrderRow } from '../orders/view';
import type { ClaimMailFacts } from './mail';

export type ClaimRow = typeof claims.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;

const hourMs = 60 * 60 * 1000;
export const boxesText = (boxes: number) => `${boxes} ${boxes === 1 ? 'box' : 'boxes'}`;
export const claimPhotoUrl = (claimId: number, position: number) => `/api/claims/${claimId}/photos/${position}`;

/** The claims as their shopper and staff see them: boxes, photos, and the refund or replacement given. */
export async function claimViews(db: Db | Tx, rows: ClaimRow[]): Promise<ClaimView[]> {
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
    db.select({ id: refunds.id, amountCents: refunds.amountCents, state: refunds.state }).from(refunds).where(inArray(refunds.id, rows.map((row) => row.refundId ?? 0))),
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
    refundState: given.find((one) => one.id === row.refundId)?.state ?? null,
    replacementOrderNumber: replacements.find((one) => one.id === row.replacementOrderId)?.number ?? null,
    declineReason: row.declineReason,
  }));
}

/** What the claim's e-mails say of it: its number, reason and boxes. */
export function factsOf(claim: ClaimRow, lines: Array<{ name: string; quantity: number }>): ClaimMailFacts {
  return { id: claim.id, reason: claim.reason, lines };
}

/** When the order was first marked delivered; the window runs from then. */
export async function deliveredAtOf(db: Db | Tx, orderId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: orderEvents.createdAt })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.status, 'delivered')))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id))
    .limit(1);
  return row?.at ?? null;
}

/** Whether a claim may be made on the order at `now`, and when its window closes. */
export async function windowOf(db: Db | Tx, order: OrderRow, hours: number, contactEmail: string, now: number): Promise<{ closedReason: string | null; closesAt: Date | null }> {
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
export async function claimableLines(db: Db | Tx, orderId: number): Promise<Array<{ line: OrderLineRow; claimable: number; open: boolean }>> {
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

/** What has been refunded on the order so far, in cents. */
export async function refundedCents(db: Db | Tx, orderId: number): Promise<number> {
  const [given] = await db.select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` }).from(refunds).where(eq(refunds.orderId, orderId));
  return Number(given?.cents ?? 0);
}

/**
 * The most a claim's refund may be: what was paid for its boxes (their price less their share of
 * the order's discount, rounded in the shop's favour), and never more than is left unrefunded on
 * the order.
 */
export async function refundLimitCents(db: Db | Tx, order: OrderRow, claimId: number): Promise<number> {
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

