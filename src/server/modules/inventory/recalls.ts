import { and, asc, desc, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { batchLabel } from '../../../contracts/batches';
import { formatDate, nzToday } from '../../../contracts/dates';
import type { OrderStatus } from '../../../contracts/order';
import { type RecallSummary, type RecallAction, type RecallInput, type RecallOrderRow, type RecallView, recallActions } from '../../../contracts/recalls';
import type { Db, Tx } from '../../db/client';
import { batchMovements, batchRecallOrders, batchRecalls, orderEvents, orderLineBatches, orderLines, orders, products, stockBatches, stockMovements, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { Conflict, NotFound } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { composeMail, type MailPart } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import type { SettingsService } from '../settings/service';
import { chooseBatches, expiryOrder } from './batches';

interface Actor {
  userId: number;
  requestId: string;
}

/** Orders whose boxes are still in the cool room: packing takes them from the batches later. */
const unpacked: OrderStatus[] = ['pending_payment', 'paid'];
/** Times a recall starts again when an order for the product was placed between its reads. */
const attempts = 4;

class OrdersMoved extends Error {}

/**
 * Batch recalls (decision 0048): a batch found unsafe leaves the cool room at once; orders still to
 * be packed from it get boxes of the product's other batches or wait on hold; every shopper who was
 * sent boxes of it is mailed once. Staff see the affected orders until they close the recall.
 */
export class RecallService {
  constructor(private readonly deps: { db: Db; settings: SettingsService; bus: CacheBus; publicUrl: string }) {}

  /**
   * Recalls the batch, all in one transaction. Locks, in the order the rest of the shop takes them:
   * the orders that may hold its boxes (id order, as a status change locks an order first), then the
   * product, then its batches (as packing and write-offs do). A packer marking an order packed at
   * the same moment either packs first, and its shopper is mailed, or packs from another batch.
   */
  async recall(batchId: number, input: RecallInput, actor: Actor): Promise<RecallView> {
    const settings = await this.deps.settings.stored();
    for (let attempt = 1; ; attempt += 1) {
      try {
        const recallId = await this.deps.db.transaction((tx) => this.recallOnce(tx, batchId, input, actor, settings.siteName, settings.contact.email));
        await this.deps.bus.publish('products');
        return this.view(batchId, recallId);
      } catch (error) {
        if (!(error instanceof OrdersMoved) || attempt === attempts) throw error instanceof OrdersMoved ? new Conflict('Orders for this product are being placed right now: please try the recall again.') : error;
      }
    }
  }

  private async recallOnce(tx: Tx, batchId: number, input: RecallInput, actor: Actor, siteName: string, contactEmail: string): Promise<number> {
    const [found] = await tx.select({ productId: stockBatches.productId }).from(stockBatches).where(eq(stockBatches.id, batchId));
    if (!found) throw new NotFound('Batch not found');
    const productId = found.productId;
    const holding = await this.ordersHolding(tx, productId);
    if (holding.length) await tx.select({ id: orders.id }).from(orders).where(inArray(orders.id, holding)).orderBy(asc(orders.id)).for('update');
    const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('no key update');
    if (!product) throw new NotFound('Product not found');
    const [already] = await tx.select({ at: batchRecalls.createdAt }).from(batchRecalls).where(eq(batchRecalls.batchId, batchId));
    if (already) throw new Conflict(`Batch ${batchId} was already recalled on ${formatDate(nzToday(already.at))}.`);
    const batches = await tx.select().from(stockBatches).where(eq(stockBatches.productId, productId)).orderBy(...expiryOrder).for('update');
    const batch = batches.find((row) => row.id === batchId)!;
    // An order placed between the first read and the product's lock holds boxes too: start again.
    const holdingNow = await this.ordersHolding(tx, productId);
    if (holdingNow.some((id) => !holding.includes(id))) throw new OrdersMoved();

    // Where packing would take each waiting line's boxes from now: the orders soonest to go first.
    const lines = await tx
      .select({ id: orderLines.id, orderId: orderLines.orderId, quantity: orderLines.quantity, recalledBoxes: orderLines.recalledBoxes, dispatchDate: orders.dispatchDate })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(eq(orderLines.productId, productId), inArray(orders.status, unpacked), or(eq(orderLines.isPreOrder, false), isNotNull(orderLines.allocatedAt))))
      .orderBy(sql`${orders.dispatchDate} asc nulls last`, asc(orders.id), asc(orderLines.id));
    const shelf = batches.filter((row) => row.boxesLeft > 0).map((row) => ({ ...row }));
    const affected: Array<{ lineId: number; orderId: number; boxes: number }> = [];
    for (const line of lines) {
      const { taken } = chooseBatches(shelf, line.quantity - line.recalledBoxes);
      for (const part of taken) part.batch.boxesLeft -= part.boxes;
      const fromBatch = taken.filter((part) => part.batch.id === batchId).reduce((sum, part) => sum + part.boxes, 0);
      if (fromBatch > 0) affected.push({ lineId: line.id, orderId: line.orderId, boxes: fromBatch });
    }
    // The batch's boxes no order was waiting for were on sale: they go, and what is left on sale
    // replaces the boxes orders were waiting for, soonest first, until it runs out.
    const owedFromBatch = affected.reduce((sum, line) => sum + line.boxes, 0);
    let onSale = Math.max(0, product.stock - Math.max(0, batch.boxesLeft - owedFromBatch));
    const perOrder = new Map<number, { boxes: number; short: number }>();
    const shortLines: Array<{ lineId: number; short: number }> = [];
    for (const line of affected) {
      const given = Math.min(onSale, line.boxes);
      onSale -= given;
      const short = line.boxes - given;
      if (short > 0) shortLines.push({ lineId: line.lineId, short });
      const entry = perOrder.get(line.orderId) ?? { boxes: 0, short: 0 };
      entry.boxes += line.boxes;
      entry.short += short;
      perOrder.set(line.orderId, entry);
    }

    const [recall] = await tx
      .insert(batchRecalls)
      .values({ batchId, reason: input.reason, advice: input.advice, boxesWrittenOff: batch.boxesLeft, actorUserId: actor.userId })
      .returning({ id: batchRecalls.id });
    const label = batchLabel(batch);
    if (batch.boxesLeft > 0) {
      await tx.update(stockBatches).set({ boxesLeft: 0 }).where(eq(stockBatches.id, batchId));
      await tx.insert(batchMovements).values({ batchId, change: -batch.boxesLeft, reason: 'recalled', actorUserId: actor.userId, note: input.reason });
    }
    if (onSale !== product.stock) {
      await tx.update(products).set({ stock: onSale, updatedAt: sql`now()` }).where(eq(products.id, productId));
      await tx.insert(stockMovements).values({ productId, change: onSale - product.stock, reason: 'recall', actorUserId: actor.userId, note: `${label} recalled: ${input.reason}` });
    }
    for (const line of shortLines) {
      await tx.update(orderLines).set({ recalledBoxes: sql`${orderLines.recalledBoxes} + ${line.short}` }).where(eq(orderLines.id, line.lineId));
    }
    const heldReason = `${product.name}, ${label.charAt(0).toLowerCase()}${label.slice(1)}, was recalled (${input.reason})`;
    const held = [...perOrder].filter(([, entry]) => entry.short > 0).map(([orderId]) => orderId);
    if (held.length) {
      // An order already on hold for another recall keeps its first reason.
      await tx
        .update(orders)
        .set({ heldReason: sql`coalesce(${orders.heldReason}, ${heldReason})`, heldAt: sql`coalesce(${orders.heldAt}, now())`, updatedAt: sql`now()` })
        .where(inArray(orders.id, held));
    }

    // Boxes of the batch already packed, sent or delivered: their shoppers are told, once each.
    const sent = await tx
      .select({ orderId: orders.id, number: orders.number, userId: orders.userId, giftTo: sql<string | null>`case when ${orders.giftMessage} is null then null else ${orders.shipName} end`, boxes: sql<number>`sum(${orderLineBatches.boxes})::int` })
      .from(orderLineBatches)
      .innerJoin(orderLines, eq(orderLines.id, orderLineBatches.orderLineId))
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(eq(orderLineBatches.batchId, batchId))
      .groupBy(orders.id)
      .orderBy(asc(orders.id));
    const rows = [
      ...[...perOrder].map(([orderId, entry]) => ({ recallId: recall!.id, orderId, boxes: entry.boxes, boxesShort: entry.short, action: (entry.short > 0 ? 'held' : 'reallocated') as RecallAction })),
      ...sent.map((order) => ({ recallId: recall!.id, orderId: order.orderId, boxes: order.boxes, boxesShort: 0, action: 'mailed' as RecallAction })),
    ];
    if (rows.length) await tx.insert(batchRecallOrders).values(rows);
    const byShopper = new Map<number, typeof sent>();
    for (const order of sent) byShopper.set(order.userId, [...(byShopper.get(order.userId) ?? []), order]);
    if (byShopper.size) {
      const shoppers = await tx.select({ id: users.id, email: users.email, firstName: users.firstName }).from(users).where(inArray(users.id, [...byShopper.keys()]));
      for (const shopper of shoppers) {
        const mail = recallMail({ to: shopper.email, firstName: shopper.firstName, productName: product.name, batch, reason: input.reason, advice: input.advice, orders: byShopper.get(shopper.id)!, siteName, contactEmail, publicUrl: this.deps.publicUrl });
        await queueMail(tx, mail);
      }
    }
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'inventory.recall',
      entity: 'batch',
      entityId: batchId,
      before: { boxesLeft: batch.boxesLeft, stock: product.stock },
      after: { boxesLeft: 0, stock: onSale, reason: input.reason, advice: input.advice, reallocated: perOrder.size - held.length, held: held.length, mailed: byShopper.size },
      requestId: actor.requestId,
    });
    return recall!.id;
  }

  /** Orders that hold boxes of the product in the cool room (not packed yet), by id. */
  private async ordersHolding(tx: Tx, productId: number): Promise<number[]> {
    const rows = await tx
      .selectDistinct({ id: orders.id })
      .from(orders)
      .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
      .where(and(eq(orderLines.productId, productId), inArray(orders.status, unpacked), or(eq(orderLines.isPreOrder, false), isNotNull(orderLines.allocatedAt))))
      .orderBy(asc(orders.id));
    return rows.map((row) => row.id);
  }

  /** The batch's recall with each order it touched, as it stands now (statuses and dates move on). */
  async view(batchId: number, knownId?: number): Promise<RecallView> {
    const { db } = this.deps;
    const [row] = await db
      .select({ recall: batchRecalls, batch: stockBatches, productName: products.name, firstName: users.firstName, lastName: users.lastName })
      .from(batchRecalls)
      .innerJoin(stockBatches, eq(stockBatches.id, batchRecalls.batchId))
      .innerJoin(products, eq(products.id, stockBatches.productId))
      .leftJoin(users, eq(users.id, batchRecalls.actorUserId))
      .where(knownId === undefined ? eq(batchRecalls.batchId, batchId) : eq(batchRecalls.id, knownId));
    if (!row) throw new NotFound('This batch has not been recalled');
    const touched = await db
      .select({ entry: batchRecallOrders, order: orders, email: users.email, firstName: users.firstName, lastName: users.lastName, phone: users.phone })
      .from(batchRecallOrders)
      .innerJoin(orders, eq(orders.id, batchRecallOrders.orderId))
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(batchRecallOrders.recallId, row.recall.id))
      .orderBy(asc(orders.id));
    const ids = touched.map((one) => one.order.id);
    const events = ids.length
      ? await db
          .select({ orderId: orderEvents.orderId, status: orderEvents.status, at: sql<string>`min(${orderEvents.createdAt})` })
          .from(orderEvents)
          .where(and(inArray(orderEvents.orderId, ids), inArray(orderEvents.status, ['packed', 'shipped', 'delivered'])))
          .groupBy(orderEvents.orderId, orderEvents.status)
      : [];
    const when = (orderId: number, status: OrderStatus) => {
      const found = events.find((event) => event.orderId === orderId && event.status === status);
      return found ? new Date(found.at).toISOString() : null;
    };
    const orderRows: RecallOrderRow[] = touched.map(({ entry, order, email, firstName, lastName, phone }) => ({
      orderNumber: order.number,
      status: order.status,
      customerName: `${firstName} ${lastName}`.trim(),
      email,
      phone: phone || order.shipPhone,
      boxes: entry.boxes,
      boxesShort: entry.boxesShort,
      packedAt: when(order.id, 'packed'),
      dispatchedAt: when(order.id, 'shipped'),
      deliveredAt: when(order.id, 'delivered'),
      action: entry.action,
      onHold: order.heldReason !== null && unpacked.includes(order.status),
    }));
    return {
      id: row.recall.id,
      batchId: row.batch.id,
      productId: row.batch.productId,
      productName: row.productName,
      batchLabel: batchLabel(row.batch),
      reason: row.recall.reason,
      advice: row.recall.advice,
      boxesWrittenOff: row.recall.boxesWrittenOff,
      recalledAt: row.recall.createdAt.toISOString(),
      recalledBy: row.firstName === null ? null : `${row.firstName} ${row.lastName ?? ''}`.trim(),
      closedAt: row.recall.closedAt?.toISOString() ?? null,
      orders: orderRows,
      counts: countsOf(orderRows),
    };
  }

  /** Every recall, newest first: those staff have not closed are the dashboard's banner. */
  async list(): Promise<RecallSummary[]> {
    const { db } = this.deps;
    const rows = await db
      .select({ recall: batchRecalls, batch: stockBatches, productName: products.name })
      .from(batchRecalls)
      .innerJoin(stockBatches, eq(stockBatches.id, batchRecalls.batchId))
      .innerJoin(products, eq(products.id, stockBatches.productId))
      .orderBy(desc(batchRecalls.createdAt), desc(batchRecalls.id))
      .limit(200);
    if (!rows.length) return [];
    const touched = await db
      .select({ recallId: batchRecallOrders.recallId, action: batchRecallOrders.action, status: orders.status, heldReason: orders.heldReason })
      .from(batchRecallOrders)
      .innerJoin(orders, eq(orders.id, batchRecallOrders.orderId))
      .where(inArray(batchRecallOrders.recallId, rows.map((row) => row.recall.id)));
    return rows.map(({ recall, batch, productName }) => {
      const mine = touched.filter((one) => one.recallId === recall.id);
      return {
        id: recall.id,
        batchId: batch.id,
        productName,
        batchLabel: batchLabel(batch),
        reason: recall.reason,
        recalledAt: recall.createdAt.toISOString(),
        counts: countsOf(mine),
        stillHeld: mine.filter((one) => one.action === 'held' && one.heldReason !== null && unpacked.includes(one.status)).length,
        closedAt: recall.closedAt?.toISOString() ?? null,
      };
    });
  }

  /** Staff have done what the recall asks: it leaves the dashboard (its record stays). */
  async close(batchId: number, actor: Actor): Promise<RecallView> {
    const closed = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(batchRecalls).where(eq(batchRecalls.batchId, batchId)).for('update');
      if (!row) throw new NotFound('This batch has not been recalled');
      if (row.closedAt) return row.id;
      await tx.update(batchRecalls).set({ closedAt: sql`now()`, closedByUserId: actor.userId }).where(eq(batchRecalls.id, row.id));
      await recordAudit(tx, { actorUserId: actor.userId, action: 'inventory.recall_closed', entity: 'batch', entityId: batchId, before: { closedAt: null }, after: { closed: true }, requestId: actor.requestId });
      return row.id;
    });
    return this.view(batchId, closed);
  }

  /**
   * A held order gets the boxes a recall left it without, from the product's stock (new boxes
   * received since), and may be packed again. Refused, with what is missing, while the stock has
   * fewer; the order then stays on hold (or staff cancel it).
   */
  async releaseHold(orderNumber: string, actor: Actor): Promise<void> {
    const released = await this.deps.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.number, orderNumber)).for('update');
      if (!order) throw new NotFound('Order not found');
      if (order.heldReason === null || !unpacked.includes(order.status)) throw new Conflict(`Order ${orderNumber} is not on hold.`);
      const short = await tx
        .select({ id: orderLines.id, productId: orderLines.productId, name: orderLines.productName, boxes: orderLines.recalledBoxes })
        .from(orderLines)
        .where(and(eq(orderLines.orderId, order.id), gt(orderLines.recalledBoxes, 0)))
        .orderBy(asc(orderLines.productId), asc(orderLines.id));
      for (const line of short) {
        if (line.productId === null) throw new Conflict(`${line.name} is no longer in the catalogue: cancel the order instead.`);
        const [product] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, line.productId)).for('no key update');
        if (!product || product.stock < line.boxes) {
          const have = product?.stock ?? 0;
          throw new Conflict(`The order needs ${line.boxes} more ${line.boxes === 1 ? 'box' : 'boxes'} of ${line.name} and ${have === 0 ? 'none are' : `only ${have} ${have === 1 ? 'is' : 'are'}`} in stock: record a batch on Inventory first, or cancel the order.`);
        }
        await tx.update(products).set({ stock: sql`${products.stock} - ${line.boxes}`, updatedAt: sql`now()` }).where(eq(products.id, line.productId));
        await tx.insert(stockMovements).values({ productId: line.productId, change: -line.boxes, reason: 'recall', orderId: order.id, actorUserId: actor.userId, note: `Order ${order.number} released from hold` });
        await tx.update(orderLines).set({ recalledBoxes: 0 }).where(eq(orderLines.id, line.id));
      }
      await tx.update(orders).set({ heldReason: null, heldAt: null, updatedAt: sql`now()` }).where(eq(orders.id, order.id));
      await recordAudit(tx, { actorUserId: actor.userId, action: 'order.hold_released', entity: 'order', entityId: order.number, before: { heldReason: order.heldReason }, after: { heldReason: null, boxes: short.reduce((sum, line) => sum + line.boxes, 0) }, requestId: actor.requestId });
      return short.length > 0;
    });
    if (released) await this.deps.bus.publish('products');
  }
}

function countsOf(rows: ReadonlyArray<{ action: RecallAction }>): Record<RecallAction, number> {
  const counts = Object.fromEntries(recallActions.map((action) => [action, 0])) as Record<RecallAction, number>;
  for (const row of rows) counts[row.action] += 1;
  return counts;
}

interface RecallMailFacts {
  to: string;
  firstName: string;
  productName: string;
  batch: { id: number; bestBefore: string | null; harvestedOn: string | null };
  reason: string;
  advice: string;
  orders: Array<{ number: string; boxes: number; giftTo: string | null }>;
  siteName: string;
  contactEmail: string;
  publicUrl: string;
}

/** The one e-mail a shopper gets when a batch they were sent boxes of is recalled: why, and what to do. */
export function recallMail(facts: RecallMailFacts): MailMessage {
  const gifts = facts.orders.filter((order) => order.giftTo);
  const parts: MailPart[] = [
    `We are recalling a batch of ${facts.productName} that was in your ${facts.orders.length === 1 ? 'order' : 'orders'}:`,
    { kind: 'list', items: facts.orders.map((order) => `Order ${order.number}: ${order.boxes} ${order.boxes === 1 ? 'box' : 'boxes'}${order.giftTo ? `, sent as a gift to ${order.giftTo}` : ''}`) },
    `Batch ${facts.batch.id}${facts.batch.harvestedOn ? `, harvested ${formatDate(facts.batch.harvestedOn)}` : ''}${facts.batch.bestBefore ? `, best before ${formatDate(facts.batch.bestBefore)}` : ''}.`,
    '',
    { kind: 'callout', text: `Why: ${facts.reason}` },
    '',
    `What to do: ${facts.advice}`,
    '',
    ...(gifts.length ? [`Please pass this on to ${gifts.map((order) => order.giftTo).join(' and ')}, who received ${gifts.length === 1 ? 'the gift' : 'the gifts'}.`, ''] : []),
    `We are very sorry. If you have questions, reply to this e-mail or write to ${facts.contactEmail}.`,
    '',
    { kind: 'button', label: facts.orders.length === 1 ? 'See your order' : 'See your orders', href: facts.orders.length === 1 ? `${facts.publicUrl}/account/orders/${facts.orders[0]!.number}` : `${facts.publicUrl}/account` },
  ];
  return composeMail({ to: facts.to, subject: `Recall: ${facts.productName} from your order`, preview: `Why: ${facts.reason}`, greeting: `Kia ora ${facts.firstName},`, parts, siteName: facts.siteName });
}
