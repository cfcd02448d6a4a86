import type { Product } from '../../../contracts/product';
import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { placeOrderSchema } from '../../../contracts/checkout';
import type { Carrier, OrderStatus, OrderSummary, OrderView, PlacedOrder } from '../../../contracts/order';
import type { StoredSettings } from '../../../contracts/settings';
import type { Db } from '../../db/client';
import { orders, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { queueMail } from '../../lib/mail-outbox';
import { confirmationMail } from './mail';
import type { CacheBus } from '../../lib/cache-bus';
import { Conflict, NotFound } from '../../lib/errors';
import type { StripeCheckout } from '../../lib/payments';
import type { UserRow } from '../auth/user-view';
import type { DeliveryService } from '../delivery/service';
import type { SettingsService } from '../settings/service';
import { CardPayments } from './card-payments';
import { OrderPlacing } from './placing';
import { RefundPayouts } from './refunds';
import { OrderStatusChanges } from './status-changes';
import { type OrderRow, orderSummaries, orderView } from './view';

export type PlaceOrderRequest = z.output<typeof placeOrderSchema>;

export interface OrderDeps {
  db: Db;
  settings: SettingsService;
  delivery: DeliveryService;
  bus: CacheBus;
  stripe: StripeCheckout | undefined;
  publicUrl: string;
  /** The shop's clock: the day an order ships, for when its fruit should be ready. */
  clock: () => Date;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** The database runs one transaction at a time (the embedded one), so none waits on a row's lock. */
  serialTransactions: boolean;
  /** What the catalogue says each product's boxes are (origin and treatment): an order line keeps it. */
  offeredOrigins?: () => Promise<ReadonlyMap<number, Pick<Product, 'origin' | 'treatment'>>>;
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

/** Placing, reading and moving orders along their lifecycle; every money figure is computed here. */
export class OrderService {
  private readonly placing: OrderPlacing;
  private readonly cards: CardPayments;
  private readonly statuses: OrderStatusChanges;
  /** Refunds: card ones through Stripe, transfers owed until staff pay them out. */
  readonly refunds: RefundPayouts;

  constructor(private readonly deps: OrderDeps) {
    this.refunds = new RefundPayouts(deps, this);
    this.placing = new OrderPlacing(deps, this);
    this.cards = new CardPayments(deps, this);
    this.statuses = new OrderStatusChanges(deps, this, this.cards);
  }

  /** Turns the shopper's cart into an order; a retried submit with the same idempotency key returns the first order. */
  /** `hooks.committed`: called once the order is in the database, before a card payment is started. */
  async place(user: UserRow, input: PlaceOrderRequest, hooks: { committed?: () => void } = {}): Promise<PlacedOrder & { created: boolean }> {
    return this.placing.place(user, input, hooks);
  }

  /** A new Stripe Checkout session for an unpaid card order (the previous one is closed first). */
  async startCardPayment(order: OrderRow, user: Pick<UserRow, 'email'>): Promise<string> {
    return this.cards.startCardPayment(order, user);
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
   * Moves an order along its lifecycle in one transaction, records the step on the timeline and
   * e-mails the customer. Answers null when `onlyFrom` no longer matches.
   */
  async changeStatus(orderId: number, to: OrderStatus, change: StatusChange): Promise<OrderRow | null> {
    return this.statuses.changeStatus(orderId, to, change);
  }

  /** Cancels orders left unpaid longer than the settings allow, returning their stock. */
  async cancelOverdue(now = new Date(), stop?: AbortSignal): Promise<number> {
    return this.statuses.cancelOverdue(now, stop);
  }

  /** A Stripe Checkout session was paid: marks its order paid once, if the amount matches its total. */
  async recordCardPayment(payment: { orderNumber: string; sessionId: string; amountCents: number; currency: string }): Promise<'paid' | 'already' | 'mismatch' | 'unknown'> {
    return this.cards.recordCardPayment(payment);
  }

  /** Staff send the order's confirmation again (lost in spam, a new address): its details as they are now. */
  async resendConfirmation(order: OrderRow, actor: UserRow, requestId: string): Promise<{ to: string; subject: string }> {
    const { db } = this.deps;
    const settings = await this.deps.settings.stored();
    const [customer] = await db.select().from(users).where(eq(users.id, order.userId));
    if (!customer) throw new NotFound('The customer of this order no longer has an account.');
    const mail = confirmationMail(this.mailContext(customer, await this.view(order), settings));
    await db.transaction(async (tx) => {
      await queueMail(tx, mail);
      await recordAudit(tx, { actorUserId: actor.id, action: 'order.mail_resent', entity: 'order', entityId: order.number, before: null, after: { to: mail.to, subject: mail.subject }, requestId });
    });
    return { to: mail.to, subject: mail.subject };
  }

  mailContext(user: Pick<UserRow, 'email' | 'firstName'>, order: OrderView, settings: StoredSettings) {
    return { to: user.email, firstName: user.firstName, order, settings, orderUrl: `${this.deps.publicUrl}/account/orders/${order.number}` };
  }
}
