import { and, eq, isNull, sql } from 'drizzle-orm';
import { orders } from '../../db/schema';
import { Conflict } from '../../lib/errors';
import { sessionLifetimeLimits } from '../../lib/payments';
import type { UserRow } from '../auth/user-view';
import type { OrderDeps, OrderService } from './service';
import { payByOf } from './pay-by';
import { type OrderRow, pairedOrderOf } from './view';

/** The order still points at this Stripe session (or at none). */
const stripeSessionIs = (sessionId: string | null) => (sessionId ? eq(orders.stripeSessionId, sessionId) : isNull(orders.stripeSessionId));

/** Card payments through Stripe Checkout: opening and closing an order's session, and recording its payment. */
export class CardPayments {
  constructor(
    private readonly deps: OrderDeps,
    private readonly orders: OrderService,
  ) {}

  /**
   * A new Stripe Checkout session for an unpaid card order (the previous one is closed first);
   * it closes before the order's unpaid timeout, so a cancelled order can never be paid.
   */
  async startCardPayment(order: OrderRow, user: Pick<UserRow, 'email'>): Promise<string> {
    const { stripe, publicUrl, db } = this.deps;
    if (!stripe) throw new Conflict('Card payment is not available at the moment.');
    if (order.status !== 'pending_payment' || order.paymentMethod !== 'stripe') throw new Conflict('This order does not need a card payment.');
    if (order.paidWithOrderId !== null) {
      const [payer] = await db.select({ number: orders.number }).from(orders).where(eq(orders.id, order.paidWithOrderId));
      throw new Conflict(`This order is paid for with order ${payer?.number ?? 'it was placed with'}: please pay there.`);
    }
    const timeoutDays = (await this.deps.settings.stored()).unpaidOrderTimeoutDays;
    // Its pay-by when it has one (a season box's packing cut-off), else the unpaid timeout: the sweep cancels then.
    const deadline = payByOf(order, timeoutDays).getTime();
    const expiresAt = Math.min(Date.now() + sessionLifetimeLimits.maxSeconds * 1000, deadline);
    if (expiresAt - Date.now() < sessionLifetimeLimits.minSeconds * 1000) {
      throw new Conflict('The time to pay for this order has run out. Please place a new order.');
    }
    if (order.stripeSessionId) await this.closeCardSession(order, order.stripeSessionId);
    const closesAt = new Date(expiresAt);
    const session = await stripe.createSession({
      orderNumber: order.number,
      // One payment for the cart: with the pre-order boxes sent later, their order's total too.
      totalCents: await this.amountToPay(order),
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

  /**
   * An unpaid card order's Stripe session is closed before the order is cancelled, so it cannot be
   * paid afterwards. When Stripe has already taken the money (its webhook is late), the payment is
   * recorded instead, and a cancel that expected an unpaid order finds it paid and does nothing.
   * A payment still processing, or one that does not match the total, stops the cancel until
   * Stripe knows how it ended or staff have checked it. Answers the session the order pointed at
   * (closed now), or null for none.
   */
  async closeCardSessionBeforeCancel(orderId: number): Promise<string | null> {
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

  /** What the order's payment covers: its total, and its later delivery's when its cart was sent in two. */
  private async amountToPay(order: OrderRow): Promise<number> {
    const paired = await pairedOrderOf(this.deps.db, order);
    // Paid with it (and maybe refunded since) it counts; cancelled alone before the payment, not.
    return order.totalCents + (paired && order.paidWithOrderId === null && paired.status !== 'cancelled' ? paired.totalCents : 0);
  }

  /**
   * A Stripe Checkout session was paid (told by the webhook, or seen by the pay route before it):
   * marks its order paid once (a replay finds it paid already). The amount must match the order's
   * total, or the order is left for staff to check.
   */
  async recordCardPayment(payment: { orderNumber: string; sessionId: string; amountCents: number; currency: string }): Promise<'paid' | 'already' | 'mismatch' | 'unknown'> {
    const [order] = await this.deps.db.select().from(orders).where(eq(orders.number, payment.orderNumber));
    if (!order || order.paymentMethod !== 'stripe') return 'unknown';
    if (payment.amountCents !== (await this.amountToPay(order)) || payment.currency.toLowerCase() !== 'nzd') {
      this.deps.log.error({ order: order.number, amount: payment.amountCents, currency: payment.currency }, 'card payment does not match the order total');
      return 'mismatch';
    }
    // The status is checked under the order's lock: a cancel at the same moment is seen here.
    const changed = await this.orders.changeStatus(order.id, 'paid', { actorUserId: null, note: `Card payment received (${payment.sessionId})`, onlyFrom: 'pending_payment' });
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
}
