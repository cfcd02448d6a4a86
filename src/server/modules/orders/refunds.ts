import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm';
import { centsToDollars, formatNzd } from '../../../contracts/money';
import { accountEnding, type OpenRefundRow, type RefundAccount, type RefundMethod, type RefundView } from '../../../contracts/refunds';
import type { Db, Tx } from '../../db/client';
import { orders, refunds, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { Conflict, NotFound } from '../../lib/errors';
import { queueMail } from '../../lib/mail-outbox';
import type { UserRow } from '../auth/user-view';
import { message, refundPaidOutMail, refundRoute } from './mail';
import type { OrderDeps, OrderService } from './service';
import { type OrderRow, orderView } from './view';
import type { StoredSettings } from '../../../contracts/settings';

export type RefundRow = typeof refunds.$inferSelect;

/**
 * How an order's money goes back: a card payment through Stripe's refund API, to the card that
 * paid; anything else (a bank transfer, a card order staff marked paid by hand) by the shop's
 * own transfer, to an account the shopper gives.
 */
export function refundMethodOf(order: Pick<OrderRow, 'paymentMethod' | 'stripeSessionId' | 'paidWithOrderId' | 'stripePaymentIntentId'>): RefundMethod {
  // A later delivery was paid by its first order's card session (sendCardRefunds finds it there).
  return order.paymentMethod === 'stripe' && (order.stripeSessionId || order.stripePaymentIntentId || order.paidWithOrderId !== null) ? 'card' : 'transfer';
}

/**
 * Records money to give back, in the caller's transaction. Nothing is "refunded" yet: a card
 * refund is 'pending' until Stripe takes it (asked once the transaction commits, never inside
 * it), a transfer is 'owed' until staff mark it paid out.
 */
export async function recordRefund(tx: Tx, order: Pick<OrderRow, 'id' | 'paymentMethod' | 'stripeSessionId' | 'paidWithOrderId' | 'stripePaymentIntentId'>, values: { amountCents: number; reason: string; actorUserId: number | null }): Promise<RefundRow> {
  const method = refundMethodOf(order);
  const [row] = await tx
    .insert(refunds)
    .values({ orderId: order.id, ...values, method, state: method === 'card' ? 'pending' : 'owed' })
    .returning();
  return row!;
}

export function refundViewOf(row: RefundRow): RefundView {
  return {
    id: row.id,
    amount: centsToDollars(row.amountCents),
    reason: row.reason,
    method: row.method,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    refundedAt: row.refundedAt?.toISOString() ?? null,
    accountEnding: accountEnding(row.payoutAccount),
  };
}

/** Stripe's words for a failed call, short enough for the dashboard. */
function failureOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 300);
}

/** Card refunds sent to Stripe, transfers owed and paid out, and the shopper's account for them. */
export class RefundPayouts {
  constructor(
    private readonly deps: OrderDeps,
    private readonly orders: OrderService,
  ) {}

  /**
   * Asks Stripe for every card refund still pending (of one order, or all): each with the key of
   * its own record, so a retry after a lost answer, or two processes at once, make one refund.
   * A failure is kept on the record for staff and tried again by the next sweep. A card order
   * Stripe took no payment for (staff marked it paid by hand) is owed by transfer instead.
   */
  async sendCardRefunds(only: { orderId?: number; refundId?: number } = {}, stop?: AbortSignal): Promise<number> {
    const { db, stripe, log } = this.deps;
    const conditions: SQL[] = [eq(refunds.state, 'pending')];
    if (only.orderId !== undefined) conditions.push(eq(refunds.orderId, only.orderId));
    if (only.refundId !== undefined) conditions.push(eq(refunds.id, only.refundId));
    const due = await db
      // A later delivery's money came through its first order's session.
      .select({
        refund: refunds,
        number: orders.number,
        sessionId: sql<string | null>`coalesce(${orders.stripeSessionId}, (select payer.stripe_session_id from ${orders} as payer where payer.id = ${orders.paidWithOrderId}))`,
        // A season box's run charged the saved card with no session: the payment itself is kept.
        chargedIntent: orders.stripePaymentIntentId,
      })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(...conditions))
      .orderBy(asc(refunds.id))
      .limit(50);
    let sent = 0;
    for (const { refund, number, sessionId, chargedIntent } of due) {
      if (stop?.aborted) break;
      const stillPending = and(eq(refunds.id, refund.id), eq(refunds.state, 'pending'));
      if (stripe && !sessionId && !chargedIntent) {
        await this.oweByTransfer(refund, 'Stripe holds no card payment for this order: pay it back by transfer.');
        continue;
      }
      if (!stripe || (!sessionId && !chargedIntent)) {
        await db.update(refunds).set({ lastError: 'Card payments are not set up on this server (STRIPE_SECRET_KEY): the refund is sent once they are.' }).where(stillPending);
        continue;
      }
      try {
        const paymentIntent = chargedIntent ?? (await stripe.paymentIntentOf(sessionId!));
        if (!paymentIntent) {
          await this.oweByTransfer(refund, 'Stripe holds no card payment for this order: pay it back by transfer.');
          continue;
        }
        const given = await stripe.refund({ paymentIntent, amountCents: refund.amountCents, idempotencyKey: `mango-refund-${refund.id}`, orderNumber: number });
        await db.update(refunds).set({ state: 'refunded', stripeRefundId: given.id, refundedAt: sql`now()`, lastError: null }).where(stillPending);
        sent += 1;
      } catch (error) {
        log.warn({ err: error, refundId: refund.id, order: number }, 'card refund not sent this time');
        await db.update(refunds).set({ lastError: failureOf(error) }).where(stillPending);
      }
    }
    return sent;
  }

  /**
   * Sends a card refund just committed, answering whatever Stripe or the database say: the step
   * that recorded it is done, and one not sent now is sent by the next sweep.
   */
  async sendCardRefundsSoon(only: { orderId: number }): Promise<void> {
    await this.sendCardRefunds(only).catch((error: unknown) => this.deps.log.warn({ err: error, orderId: only.orderId }, 'card refund left for the next sweep'));
  }

  /** A card refund Stripe cannot make becomes a transfer owed; the shopper is asked for an account. */
  private async oweByTransfer(refund: RefundRow, why: string): Promise<void> {
    const settings = await this.deps.settings.stored();
    await this.deps.db.transaction(async (tx) => {
      const [moved] = await tx
        .update(refunds)
        .set({ method: 'transfer', state: 'owed', lastError: why })
        .where(and(eq(refunds.id, refund.id), eq(refunds.state, 'pending')))
        .returning();
      if (!moved) return;
      const context = await this.mailContextOf(tx, moved.orderId, settings);
      if (!context) return;
      await queueMail(
        tx,
        message(context, `Your refund of ${formatNzd(moved.amountCents)} for order ${context.order.number}`, [
          `Your refund of ${formatNzd(moved.amountCents)} cannot go back to a card, so we will pay it by bank transfer.`,
          ...refundRoute('transfer', context),
        ]),
      );
    });
  }

  /** The shopper says where a refund owed by transfer should go: every owed refund of the order. */
  async giveAccount(user: UserRow, number: string, account: RefundAccount): Promise<void> {
    const order = await this.orders.findFor(user, number);
    const given = await this.deps.db
      .update(refunds)
      .set({ payoutAccount: account.accountNumber, payoutName: account.accountName, accountGivenAt: sql`now()` })
      .where(and(eq(refunds.orderId, order.id), eq(refunds.state, 'owed')))
      .returning({ id: refunds.id });
    if (!given.length) throw new Conflict('Nothing is owed to you on this order: no bank account is needed.');
  }

  /** Refunds not yet paid back, oldest first: transfers owed, and card refunds Stripe has not taken. */
  async open(): Promise<OpenRefundRow[]> {
    const rows = await this.deps.db
      .select({ refund: refunds, number: orders.number, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(ne(refunds.state, 'refunded'))
      .orderBy(asc(refunds.createdAt), asc(refunds.id))
      .limit(200);
    return rows.map(({ refund, number, firstName, lastName, email }) => ({
      ...refundViewOf(refund),
      orderNumber: number,
      customerName: `${firstName} ${lastName}`.trim(),
      customerEmail: email,
      payoutAccount: refund.payoutAccount,
      payoutName: refund.payoutName,
      lastError: refund.lastError,
    }));
  }

  /**
   * Staff paid a transfer owed: only now is it refunded, and the shopper told where it went. Of two
   * staff marking it at once, one does (the row is changed only while still owed).
   */
  async markPaidOut(refundId: number, actor: UserRow, requestId: string): Promise<OpenRefundRow> {
    const settings = await this.deps.settings.stored();
    await this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
      if (!before) throw new NotFound('Refund not found');
      if (before.state === 'refunded') throw new Conflict('This refund has already been paid out.');
      if (before.method !== 'transfer') throw new Conflict('This refund goes back to the card through Stripe: there is nothing to pay out by hand.');
      if (!before.payoutAccount) throw new Conflict('The shopper has not given a bank account yet: there is nowhere to pay it.');
      const [paid] = await tx.update(refunds).set({ state: 'refunded', refundedAt: sql`now()`, paidOutBy: actor.id, lastError: null }).where(eq(refunds.id, refundId)).returning();
      await recordAudit(tx, {
        actorUserId: actor.id,
        action: 'refund.paid_out',
        entity: 'refund',
        entityId: String(refundId),
        before: { state: before.state },
        after: { state: 'refunded', amountCents: paid!.amountCents, account: paid!.payoutAccount },
        requestId,
      });
      const context = await this.mailContextOf(tx, paid!.orderId, settings);
      if (context) await queueMail(tx, refundPaidOutMail(context, paid!.amountCents, accountEnding(paid!.payoutAccount) ?? ''));
    });
    return this.row(refundId);
  }

  /** Tries a pending card refund again now, and answers it as it is then. */
  async retry(refundId: number): Promise<OpenRefundRow> {
    const current = await this.row(refundId);
    if (current.state !== 'pending') throw new Conflict('Only a card refund Stripe has not taken yet can be sent again.');
    await this.sendCardRefunds({ refundId });
    return this.row(refundId);
  }

  private async row(refundId: number): Promise<OpenRefundRow> {
    const [found] = await this.deps.db
      .select({ refund: refunds, number: orders.number, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(refunds.id, refundId));
    if (!found) throw new NotFound('Refund not found');
    const { refund, number, firstName, lastName, email } = found;
    return {
      ...refundViewOf(refund),
      orderNumber: number,
      customerName: `${firstName} ${lastName}`.trim(),
      customerEmail: email,
      payoutAccount: refund.payoutAccount,
      payoutName: refund.payoutName,
      lastError: refund.lastError,
    };
  }

  private async mailContextOf(tx: Tx | Db, orderId: number, settings: StoredSettings) {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
    if (!order) return null;
    const [customer] = await tx.select().from(users).where(eq(users.id, order.userId));
    if (!customer) return null;
    return this.orders.mailContext(customer, await orderView(tx, order, settings, Boolean(this.deps.stripe)), settings);
  }
}
