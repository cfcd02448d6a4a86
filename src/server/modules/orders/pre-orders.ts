import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { packingCutoff } from './pay-by';
import { harvestProblem } from '../../../contracts/batches';
import { boxesOf } from '../../../contracts/checkout';
import { addDays, formatDate, formatDay, nzToday } from '../../../contracts/dates';
import type { StoredSettings } from '../../../contracts/settings';
import type { DeliverySettings } from '../../../contracts/delivery';
import { isNzRegion, unsentOrderStatuses } from '../../../contracts/order';
import { type AllocationResult, expectedDispatch, type PreOrderBook, type ShipmentInput, type ShipmentView } from '../../../contracts/pre-order';
import type { Tx } from '../../db/client';
import { orderEvents, orderLines, orders, products, shipments, stockMovements, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { firstPackingDay } from '../delivery/calendar';
import { receiveBatch } from '../inventory/batches';
import { capacityForOrders, claimDispatchDay, firstFreeDate, horizonDays, lockDispatchRange } from '../delivery/service';
import { reservedBoxes } from '../subscriptions/reserved';
import type { MailMessage } from '../../lib/mail';
import { AppError, Conflict, NotFound, fieldError } from '../../lib/errors';
import { queueMail } from '../../lib/mail-outbox';
import type { MailContext } from './mail';
import { allocatedMail, newDateMail } from './pre-order-mail';
import type { OrderDeps, OrderService } from './service';
import { type OrderRow, orderView } from './view';
import { unservedLineOf, waitingBoxes, waitsFor } from './waiting-pre-orders';


interface Actor {
  userId: number;
  requestId: string;
}

type ShipmentRow = typeof shipments.$inferSelect;

const shipmentView = (row: ShipmentRow): ShipmentView => ({
  id: row.id,
  boxes: row.boxes,
  arrivalDate: row.arrivalDate,
  note: row.note,
  allocatedBoxes: row.allocatedBoxes,
  recordedAt: row.createdAt.toISOString(),
});

/**
 * The season's pre-orders (decision 0015): a shipment's boxes go to waiting pre-order lines in the
 * order they were placed, paid before unpaid, a whole line or nothing; a short shipment's waiting
 * lines get a new date or are cancelled with a refund.
 */
export class PreOrderService {
  constructor(private readonly deps: OrderDeps & { orders: OrderService }) {}

  /** Records boxes that arrived and gives them, with any leftover stock, to waiting pre-orders. */
  async recordShipment(productId: number, input: ShipmentInput, actor: Actor): Promise<AllocationResult> {
    return this.allocate(productId, input, actor);
  }

  /** Gives the product's stock (leftovers, boxes back from a cancelled order) to waiting pre-orders. */
  async allocateStock(productId: number, actor: Actor): Promise<AllocationResult> {
    return this.allocate(productId, null, actor);
  }

  private async allocate(productId: number, shipment: ShipmentInput | null, actor: Actor): Promise<AllocationResult> {
    const now = this.deps.clock().getTime();
    const harvest = harvestProblem(shipment?.harvestedOn, now);
    if (harvest) throw fieldError('harvestedOn', harvest);
    const delivery = await this.deps.delivery.settings();
    // Read before the transaction: inside it only `tx` may touch the database.
    const shopSettings = await this.deps.settings.stored();
    const result = await this.deps.db.transaction(async (tx) => {
      const { lockedOrders, product } = await lockWaiting(tx, productId);
      if (!product.isPreOrder && lockedOrders.length === 0) {
        throw new Conflict(`${product.name} is not sold as a pre-order: record boxes that arrive with Adjust stock instead.`);
      }
      if (shipment?.idempotencyKey) {
        const [earlier] = await tx.select().from(shipments).where(and(eq(shipments.productId, productId), eq(shipments.idempotencyKey, shipment.idempotencyKey)));
        if (earlier) return { ...(await replay(tx, earlier, product.stock, now)), replayed: true };
      }
      let stock = product.stock;
      let recorded: ShipmentRow | null = null;
      const arrivalDate = shipment?.arrivalDate ?? null;
      if (shipment) {
        const [inserted] = await tx
          .insert(shipments)
          .values({ productId, boxes: shipment.boxes, arrivalDate: shipment.arrivalDate, note: shipment.note ?? '', recordedBy: actor.userId, idempotencyKey: shipment.idempotencyKey ?? null })
          .returning();
        recorded = inserted!;
        stock += shipment.boxes;
        const note = `Shipment of ${formatDate(shipment.arrivalDate)}${shipment.note ? `: ${shipment.note}` : ''}`;
        await tx.insert(stockMovements).values({ productId, change: shipment.boxes, reason: 'received', actorUserId: actor.userId, note });
        await receiveBatch(
          tx,
          { productId, boxes: shipment.boxes, harvestedOn: shipment.harvestedOn, bestBefore: shipment.bestBefore, grower: shipment.grower, shipmentId: recorded.id, note, originCountry: shipment.originCountry ?? product.originCountry, treatment: shipment.treatment ?? product.treatment },
          'received',
          { actorUserId: actor.userId },
        );
      }
      const dispatch = expectedDispatch(arrivalDate, now);
      const candidates = lockedOrders.length
        ? await tx
            .select({ line: orderLines, order: orders })
            .from(orderLines)
            .innerJoin(orders, eq(orders.id, orderLines.orderId))
            .where(and(inArray(orderLines.orderId, lockedOrders.map((order) => order.id)), unservedLineOf(productId)))
            .orderBy(sql`${orders.status} = 'pending_payment'`, asc(orders.createdAt), asc(orders.id), asc(orderLines.id))
        : [];
      const given = new Map<number, { order: typeof orders.$inferSelect; boxes: number }>();
      let waiting = { lines: 0, boxes: 0 };
      for (const { line, order } of candidates) {
        // A whole line or none: a line too big for what is left keeps its place for the next
        // shipment, and a smaller one after it may still be served now.
        if (line.quantity > stock) {
          waiting = { lines: waiting.lines + 1, boxes: waiting.boxes + line.quantity };
          continue;
        }
        stock -= line.quantity;
        await tx.update(orderLines).set({ allocatedAt: sql`now()`, shipmentId: recorded?.id ?? null }).where(eq(orderLines.id, line.id));
        await tx.insert(stockMovements).values({ productId, change: -line.quantity, reason: 'allocation', orderId: order.id, actorUserId: actor.userId, note: `Pre-order ${order.number}` });
        const entry = given.get(order.id) ?? { order, boxes: 0 };
        entry.boxes += line.quantity;
        given.set(order.id, entry);
      }
      const allocatedBoxes = [...given.values()].reduce((sum, entry) => sum + entry.boxes, 0);
      await tx.update(products).set({ stock, updatedAt: sql`now()` }).where(eq(products.id, productId));
      if (recorded && allocatedBoxes > 0) {
        await tx.update(shipments).set({ allocatedBoxes }).where(eq(shipments.id, recorded.id));
        recorded = { ...recorded, allocatedBoxes };
      }
      // An order with nothing left to wait for gets its delivery day now, its boxes booked on the
      // dispatch day. Several orders may book several days: all are locked first, in date order.
      if (given.size) {
        const packing = firstPackingDay(this.deps.delivery.clock(), delivery.cutoffTime);
        const from = dispatch > packing ? dispatch : packing;
        await lockDispatchRange(tx, from, addDays(from, horizonDays + 7));
      }
      for (const entry of given.values()) entry.order = await this.bookDeliveryDay(tx, entry.order, delivery, dispatch);
      await this.tellShoppers(
        tx,
        actor.userId,
        [...given.values()].map(({ order, boxes }) => ({
          order,
          note: `${boxes} ${boxes === 1 ? 'box' : 'boxes'} of ${product.name} set aside${arrivalDate ? ` from the shipment of ${formatDate(arrivalDate)}` : ''}; ${
            order.deliveryDate ? `delivery ${formatDay(order.deliveryDate)}, dispatched ${formatDay(order.dispatchDate!)}` : `expected dispatch ${formatDate(dispatch)}`
          }`,
          mail: (context) => allocatedMail(context, { productName: product.name, boxes, dispatch }),
        })),
        shopSettings,
      );
      const allocated = [...given.values()].map(({ order, boxes }) => ({ orderNumber: order.number, boxes }));
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: shipment ? 'pre-order.shipment' : 'pre-order.allocation',
        entity: 'product',
        entityId: String(productId),
        before: { stock: product.stock },
        after: { ...(shipment ? { boxes: shipment.boxes, arrivalDate: shipment.arrivalDate, note: shipment.note ?? '' } : {}), allocated, waiting, stock },
        requestId: actor.requestId,
      });
      return { shipment: recorded ? shipmentView(recorded) : null, allocated, waiting, stock, expectedDispatch: dispatch, replayed: false };
    });
    const { replayed, ...answer } = result;
    if (!replayed) this.deps.bus.publish('products');
    return answer;
  }

  /**
   * Every pre-order is served: the product sells from its stock like any other (staff confirm).
   * Refused while a pre-order still waits, so nobody who pre-ordered is overtaken.
   */
  async openSales(productId: number, actor: Actor): Promise<{ stock: number }> {
    const stock = await this.deps.db.transaction(async (tx) => {
      // An order being placed holds only the row's key share until its claim (decision 0045): its
      // boxes are not counted below, and its claim, waiting on this lock, then finds no pre-order.
      const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('no key update');
      if (!product) throw new NotFound('Product not found');
      if (!product.isPreOrder) throw new Conflict(`${product.name} already sells from its stock.`);
      const { boxes } = await waitingBoxes(tx, productId);
      if (boxes > 0) throw new Conflict(`${boxes} pre-ordered ${boxes === 1 ? 'box still waits' : 'boxes still wait'} for ${product.name}: allocate them, move their date or cancel them first.`);
      await tx.update(products).set({ isPreOrder: false, expectedAvailabilityDate: null, preOrdersOpenAt: null, updatedAt: sql`now()` }).where(eq(products.id, productId));
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'pre-order.open-sales',
        entity: 'product',
        entityId: String(productId),
        before: { isPreOrder: true, expectedAvailabilityDate: product.expectedAvailabilityDate, stock: product.stock },
        after: { isPreOrder: false, expectedAvailabilityDate: null, stock: product.stock },
        requestId: actor.requestId,
      });
      return product.stock;
    });
    this.deps.bus.publish('products');
    return { stock };
  }

  /**
   * Each order's step on its timeline (its status unchanged) and its shopper's e-mail, queued in
   * the transaction that made the change: the shoppers are read at once, each order's view for its mail.
   */
  /**
   * The soonest delivery day with room for a fully served order, dispatched no earlier than
   * `notBefore`; an order still waiting for other boxes, or already dated, is left as it is. With
   * no free day in the coming weeks the order stays undated, for staff to arrange on the dispatch list.
   */
  private async bookDeliveryDay(tx: Tx, order: OrderRow, settings: DeliverySettings, notBefore: string): Promise<OrderRow> {
    if (order.deliveryDate || !unsentOrderStatuses.includes(order.status) || !isNzRegion(order.shipRegion)) return order;
    const lines = await tx.select({ quantity: orderLines.quantity, waiting: sql<boolean>`${orderLines.isPreOrder} and ${orderLines.allocatedAt} is null` }).from(orderLines).where(eq(orderLines.orderId, order.id));
    if (lines.some((line) => line.waiting)) return order;
    const boxes = boxesOf(lines);
    // The days are locked (allocate): the day found free is still free when claimed.
    const now = this.deps.delivery.clock();
    // What season boxes will take, counted once for the search and the claim.
    const reserved = await reservedBoxes(tx, settings, addDays(nzToday(now), -1), addDays(nzToday(now), horizonDays + 14));
    const free = await firstFreeDate(tx, { settings, region: order.shipRegion, boxes, now, reserved }, notBefore);
    if (!free || !(await claimDispatchDay(tx, free.dispatchDate, boxes, await capacityForOrders(tx, settings, free.dispatchDate, reserved)))) return order;
    const [dated] = await tx
      .update(orders)
      .set({
        deliveryDate: free.date,
        dispatchDate: free.dispatchDate,
        deliveryBoxes: boxes,
        // An unpaid bank transfer now has a packing day: it is due by that day's cut-off too.
        // (The later order of a pair has none: its first order's pay-by covers both.)
        ...(order.status === 'pending_payment' && order.paymentMethod === 'bank_transfer' && order.paidWithOrderId === null ? { payBy: packingCutoff(free.dispatchDate, settings.cutoffTime) } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(orders.id, order.id))
      .returning();
    return dated!;
  }

  /** `settings` are read before the transaction opens: inside it only `tx` may touch the database. */
  private async tellShoppers(
    tx: Tx,
    actorUserId: number,
    news: Array<{ order: OrderRow; note: string; mail: (context: MailContext) => MailMessage }>,
    settings: StoredSettings,
  ): Promise<void> {
    if (!news.length) return;
    await tx.insert(orderEvents).values(news.map(({ order, note }) => ({ orderId: order.id, status: order.status, note, actorUserId })));
    const shoppers = await tx.select().from(users).where(inArray(users.id, [...new Set(news.map(({ order }) => order.userId))]));
    const shopperById = new Map(shoppers.map((shopper) => [shopper.id, shopper]));
    for (const { order, mail } of news) {
      const shopper = shopperById.get(order.userId);
      if (!shopper) continue;
      const view = await orderView(tx, order, settings, Boolean(this.deps.stripe));
      await queueMail(tx, mail(this.deps.orders.mailContext(shopper, view, settings)));
    }
  }

  /** Who pre-ordered the product, who has boxes and who waits, and its shipments: staff's view. */
  async book(productId: number): Promise<PreOrderBook> {
    const { db } = this.deps;
    const [product] = await db.select().from(products).where(eq(products.id, productId));
    if (!product) throw new NotFound('Product not found');
    const [lines, shipped] = await Promise.all([
      db
        .select({ line: orderLines, order: orders, customer: { firstName: users.firstName, lastName: users.lastName, email: users.email } })
        .from(orderLines)
        .innerJoin(orders, eq(orders.id, orderLines.orderId))
        .innerJoin(users, eq(users.id, orders.userId))
        .where(and(eq(orderLines.productId, productId), eq(orderLines.isPreOrder, true), inArray(orders.status, [...unsentOrderStatuses, 'shipped', 'delivered'])))
        .orderBy(sql`${orders.status} = 'pending_payment'`, asc(orders.createdAt), asc(orders.id), asc(orderLines.id)),
      db.select().from(shipments).where(eq(shipments.productId, productId)).orderBy(desc(shipments.createdAt), desc(shipments.id)),
    ]);
    const views = lines.map(({ line, order, customer }) => ({
      orderNumber: order.number,
      orderStatus: order.status,
      customer: `${customer.firstName} ${customer.lastName}`.trim(),
      email: customer.email,
      boxes: line.quantity,
      placedAt: order.createdAt.toISOString(),
      allocatedAt: line.allocatedAt?.toISOString() ?? null,
      state: line.allocatedAt ? ('set-aside' as const) : unsentOrderStatuses.includes(order.status) ? ('waiting' as const) : ('sent' as const),
    }));
    const sum = (items: typeof views) => items.reduce((total, item) => total + item.boxes, 0);
    return {
      productId,
      name: product.name,
      isPreOrder: product.isPreOrder,
      expectedAvailabilityDate: product.expectedAvailabilityDate,
      stock: product.stock,
      preOrdered: sum(views),
      allocated: sum(views.filter((view) => view.state === 'set-aside')),
      waiting: sum(views.filter((view) => view.state === 'waiting')),
      lines: views,
      shipments: shipped.map(shipmentView),
    };
  }

  /** A late shipment: the product and every waiting line get the new date, each waiting shopper an e-mail. */
  async moveExpectedDate(productId: number, input: { expectedAvailabilityDate: string; note?: string }, actor: Actor): Promise<{ notified: number }> {
    const settings = await this.deps.settings.stored();
    const notified = await this.deps.db.transaction(async (tx) => {
      const { lockedOrders, product } = await lockWaiting(tx, productId);
      if (!product.isPreOrder) throw new Conflict(`${product.name} is not sold as a pre-order.`);
      const date = input.expectedAvailabilityDate;
      await tx.update(products).set({ expectedAvailabilityDate: date, updatedAt: sql`now()` }).where(eq(products.id, productId));
      if (lockedOrders.length) {
        await tx
          .update(orderLines)
          .set({ expectedAvailabilityDate: date })
          .where(and(inArray(orderLines.orderId, lockedOrders.map((order) => order.id)), unservedLineOf(productId)));
      }
      await this.tellShoppers(
        tx,
        actor.userId,
        lockedOrders.map((order) => ({
          order,
          note: `${product.name} now expected ${formatDate(date)}${input.note ? `: ${input.note}` : ''}`,
          mail: (context) => newDateMail(context, { productName: product.name, date, note: input.note ?? '' }),
        })),
        settings,
      );
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'pre-order.new-date',
        entity: 'product',
        entityId: String(productId),
        before: { expectedAvailabilityDate: product.expectedAvailabilityDate },
        after: { expectedAvailabilityDate: date, note: input.note ?? '', notified: lockedOrders.map((order) => order.number) },
        requestId: actor.requestId,
      });
      return lockedOrders.length;
    });
    this.deps.bus.publish('products');
    return { notified };
  }

  /**
   * Cancels every open order still waiting for this product's boxes: an unpaid one is cancelled, a
   * paid one refunded in full with a refund record. Each goes through the order lifecycle (stock
   * its other lines took comes back, the shopper is e-mailed).
   */
  async cancelWaiting(productId: number, reason: string, actor: Actor): Promise<{ cancelled: string[]; refunded: string[]; skipped: Array<{ orderNumber: string; reason: string }> }> {
    const [product] = await this.deps.db.select().from(products).where(eq(products.id, productId));
    if (!product) throw new NotFound('Product not found');
    const waitingOrders = await this.deps.db
      .select({ id: orders.id, number: orders.number })
      .from(orders)
      .where(waitsFor(this.deps.db, productId))
      .orderBy(asc(orders.id));
    const cancelled: string[] = [];
    const refunded: string[] = [];
    const skipped: Array<{ orderNumber: string; reason: string }> = [];
    const note = `${product.name} could not be supplied: ${reason}`;
    const change = { actorUserId: actor.userId, note, audit: { requestId: actor.requestId } };
    // One order at a time, each in its own transaction through the lifecycle: one that cannot be
    // cancelled (a card payment still processing) is reported, and the others still go.
    for (const order of waitingOrders) {
      try {
        // Null: its status moved since it was read (a payment arrived), so try once more from the new one.
        const outcome = (await this.deps.orders.cancelForShortShipment(order.id, productId, change)) ?? (await this.deps.orders.cancelForShortShipment(order.id, productId, change));
        if (outcome === 'cancelled') cancelled.push(order.number);
        if (outcome === 'refunded') refunded.push(order.number);
      } catch (error) {
        skipped.push({ orderNumber: order.number, reason: error instanceof AppError ? error.message : 'It could not be cancelled just now.' });
        if (!(error instanceof AppError)) this.deps.log.error({ order: order.number, err: error }, 'cancelling a waiting pre-order failed');
      }
    }
    // Each order's step is committed and audited on its own: this summary cannot turn that work into an error.
    await recordAudit(this.deps.db, {
      actorUserId: actor.userId,
      action: 'pre-order.cancel-waiting',
      entity: 'product',
      entityId: String(productId),
      after: { reason, cancelled, refunded, skipped },
      requestId: actor.requestId,
    }).catch((error: unknown) => this.deps.log.error({ product: productId, err: error }, 'the summary of cancelled pre-orders could not be written to the audit log'));
    return { cancelled, refunded, skipped };
  }

}

/** What recording `shipment` did, told again for a retried submit (nothing is recorded twice). */
async function replay(tx: Tx, shipment: ShipmentRow, stock: number, now: number): Promise<AllocationResult> {
  const given = await tx
    .select({ orderNumber: orders.number, boxes: sql<number>`sum(${orderLines.quantity})::int` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(eq(orderLines.shipmentId, shipment.id))
    .groupBy(orders.number, orders.id)
    .orderBy(asc(sql`min(${orderLines.allocatedAt})`), asc(orders.id));
  const waiting = await waitingBoxes(tx, shipment.productId);
  return {
    shipment: shipmentView(shipment),
    allocated: given.map((row) => ({ orderNumber: row.orderNumber, boxes: Number(row.boxes) })),
    waiting,
    stock,
    expectedDispatch: expectedDispatch(shipment.arrivalDate, now),
  };
}

/**
 * Locks the open orders still waiting for the product's boxes (by id), then the product: the order
 * a cancel takes them in (its order row, then the stock it returns), so the two wait for each
 * other instead of deadlocking. An order placed after this is the newest, and waits for the next round.
 */
async function lockWaiting(tx: Tx, productId: number) {
  const lockedOrders = await tx
    .select()
    .from(orders)
    .where(waitsFor(tx, productId))
    .orderBy(asc(orders.id))
    .for('update');
  // As every staff change of a product but its delete, `no key update`: not held up by orders in flight (decision 0045).
  const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('no key update');
  if (!product) throw new NotFound('Product not found');
  return { lockedOrders, product };
}
