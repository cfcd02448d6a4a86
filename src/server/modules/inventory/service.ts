import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { InventoryRow, StockAdjustment, StockMovementView } from '../../../contracts/inventory';
import { liveOrderStatuses, unsentOrderStatuses } from '../../../contracts/order';
import type { Db } from '../../db/client';
import { orderLines, orders, products, stockMovements, users, waitlistEntries } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { Conflict, NotFound } from '../../lib/errors';
import type { SettingsService } from '../settings/service';
import { moveBatchesWithStock, receiveBatch } from './batches';

/** Stock per product and how it got there: every change is a movement, adjustments included. */
export class InventoryService {
  constructor(private readonly deps: { db: Db; settings: SettingsService; bus: CacheBus }) {}

  async list(): Promise<InventoryRow[]> {
    const { db } = this.deps;
    const threshold = (await this.deps.settings.stored()).lowStockThreshold;
    const [rows, preOrdered, signUps] = await Promise.all([
      db.select().from(products).orderBy(asc(products.name)),
      db
        .select({
          productId: orderLines.productId,
          boxes: sql<number>`sum(${orderLines.quantity})::int`,
          allocated: sql<number>`coalesce(sum(${orderLines.quantity}) filter (where ${orderLines.allocatedAt} is not null), 0)::int`,
          // Waiting only while the order is not sent: a sent order's lines were served.
          waiting: sql<number>`coalesce(sum(${orderLines.quantity}) filter (where ${orderLines.allocatedAt} is null and ${inArray(orders.status, [...unsentOrderStatuses])}), 0)::int`,
        })
        .from(orderLines)
        .innerJoin(orders, eq(orders.id, orderLines.orderId))
        .where(and(eq(orderLines.isPreOrder, true), inArray(orders.status, [...liveOrderStatuses])))
        .groupBy(orderLines.productId),
      db
        .select({
          productId: waitlistEntries.productId,
          waiting: sql<number>`count(*) filter (where ${waitlistEntries.confirmedAt} is not null and ${waitlistEntries.notifiedAt} is null and ${waitlistEntries.cancelledAt} is null)::int`,
          notified: sql<number>`count(*) filter (where ${waitlistEntries.notifiedAt} is not null)::int`,
        })
        .from(waitlistEntries)
        .groupBy(waitlistEntries.productId),
    ]);
    const owed = new Map(preOrdered.map((row) => [row.productId, row]));
    const waitlists = new Map(signUps.map((row) => [row.productId, { waiting: Number(row.waiting), notified: Number(row.notified) }]));
    return rows.map((product) => ({
      productId: product.id,
      name: product.name,
      stock: product.stock,
      isHidden: product.isHidden,
      isPreOrder: product.isPreOrder,
      isLowStock: !product.isPreOrder && product.stock <= threshold,
      preOrderLimit: product.preOrderLimit,
      preOrdered: Number(owed.get(product.id)?.boxes ?? 0),
      allocated: Number(owed.get(product.id)?.allocated ?? 0),
      waiting: Number(owed.get(product.id)?.waiting ?? 0),
      waitlist: waitlists.get(product.id) ?? { waiting: 0, notified: 0 },
      originSetting: { country: product.originCountry, treatment: product.treatment },
    }));
  }

  /** The product's movements, newest first: orders, cancellations, refunds and adjustments with who and why. */
  async movements(productId: number): Promise<StockMovementView[]> {
    const { db } = this.deps;
    const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
    if (!product) throw new NotFound('Product not found');
    const rows = await db
      .select({ movement: stockMovements, orderNumber: orders.number, firstName: users.firstName, lastName: users.lastName })
      .from(stockMovements)
      .leftJoin(orders, eq(orders.id, stockMovements.orderId))
      .leftJoin(users, eq(users.id, stockMovements.actorUserId))
      .where(eq(stockMovements.productId, productId))
      .orderBy(desc(stockMovements.createdAt), desc(stockMovements.id))
      .limit(500);
    return rows.map(({ movement, orderNumber, firstName, lastName }) => ({
      at: movement.createdAt.toISOString(),
      change: movement.change,
      reason: movement.reason,
      note: movement.note,
      orderNumber,
      actor: firstName === null ? null : `${firstName} ${lastName ?? ''}`.trim(),
    }));
  }

  /** Boxes in or out by hand; stock never goes below 0, and the change is a movement and an audit entry. */
  async adjust(productId: number, adjustment: StockAdjustment, actor: { userId: number; requestId: string }): Promise<InventoryRow> {
    const { db } = this.deps;
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(products).where(eq(products.id, productId));
      if (!before) throw new NotFound('Product not found');
      const [after] = await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${adjustment.change}`, updatedAt: sql`now()` })
        .where(and(eq(products.id, productId), gte(sql`${products.stock} + ${adjustment.change}`, 0)))
        .returning();
      if (!after) {
        const [now] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
        const message = `Only ${now?.stock ?? 0} boxes of ${before.name} are in stock: it cannot go below 0`;
        throw new Conflict(message, { change: message });
      }
      await tx.insert(stockMovements).values({ productId, change: adjustment.change, reason: adjustment.reason, actorUserId: actor.userId, note: adjustment.note ?? '' });
      // The boxes in the cool room move with the stock: what arrives is a batch of its own.
      const context = { actorUserId: actor.userId, note: adjustment.note ?? '' };
      if (adjustment.reason === 'received' && adjustment.change > 0) await receiveBatch(tx, { productId, boxes: adjustment.change, note: adjustment.note ?? '' }, 'received', context);
      else await moveBatchesWithStock(tx, productId, adjustment.change, adjustment.reason, context);
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: `inventory.${adjustment.reason}`,
        entity: 'product',
        entityId: productId,
        before: { stock: before.stock },
        after: { stock: after.stock, change: adjustment.change, note: adjustment.note ?? '' },
        requestId: actor.requestId,
      });
    });
    await this.deps.bus.publish('products');
    const row = (await this.list()).find((item) => item.productId === productId);
    if (!row) throw new NotFound('Product not found');
    return row;
  }
}
