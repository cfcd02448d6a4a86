import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { batchLabel, harvestProblem, type BatchView, type ExpiringBatch, type NewBatch, type WriteOff } from '../../../contracts/batches';
import { addDays, nzToday } from '../../../contracts/dates';
import type { Db } from '../../db/client';
import { batchMovements, products, stockBatches, stockMovements } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { Conflict, NotFound, fieldError } from '../../lib/errors';
import type { SettingsService } from '../settings/service';
import { batchView, expiryOrder, receiveBatch } from './batches';

interface Actor {
  userId: number;
  requestId: string;
}

/** Batches of fruit in the cool room: recorded as they arrive, written off when they will not sell. */
export class BatchService {
  constructor(private readonly deps: { db: Db; settings: SettingsService; bus: CacheBus; clock: () => Date }) {}

  /** The product's batches in the order packing takes them (first expiring first), emptied ones last. */
  async list(productId: number): Promise<BatchView[]> {
    const { db } = this.deps;
    const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
    if (!product) throw new NotFound('Product not found');
    const rows = await db
      .select()
      .from(stockBatches)
      .where(eq(stockBatches.productId, productId))
      .orderBy(sql`${stockBatches.boxesLeft} = 0`, ...expiryOrder);
    return rows.map(batchView);
  }

  /**
   * Boxes that arrived together: a batch, and as many boxes more in stock. A pre-order product's
   * boxes are a shipment (Inventory → Pre-orders), so waiting pre-orders get them first.
   */
  async create(productId: number, input: NewBatch, actor: Actor): Promise<BatchView> {
    const harvest = harvestProblem(input.harvestedOn, this.deps.clock());
    if (harvest) throw fieldError('harvestedOn', harvest);
    const batch = await this.deps.db.transaction(async (tx) => {
      // As every staff change of a product but its delete, `no key update`: not held up by orders in flight (decision 0045).
      const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('no key update');
      if (!product) throw new NotFound('Product not found');
      if (product.isPreOrder) {
        const message = `${product.name} is sold as a pre-order: record its boxes as a shipment under Pre-orders, so the pre-orders waiting get them first.`;
        throw new Conflict(message, { boxes: message });
      }
      await tx.update(products).set({ stock: sql`${products.stock} + ${input.boxes}`, updatedAt: sql`now()` }).where(eq(products.id, productId));
      const row = await receiveBatch(tx, { productId, boxes: input.boxes, harvestedOn: input.harvestedOn, bestBefore: input.bestBefore, grower: input.grower, note: input.note ?? '', originCountry: input.originCountry ?? product.originCountry, treatment: input.treatment ?? product.treatment }, 'received', { actorUserId: actor.userId });
      await tx.insert(stockMovements).values({ productId, change: input.boxes, reason: 'received', actorUserId: actor.userId, note: batchLabel(row) + (input.note ? `: ${input.note}` : '') });
      await recordAudit(tx, { actorUserId: actor.userId, action: 'inventory.batch', entity: 'product', entityId: productId, before: { stock: product.stock }, after: { stock: product.stock + input.boxes, batch: batchView(row) }, requestId: actor.requestId });
      return row;
    });
    await this.deps.bus.publish('products');
    return batchView(batch);
  }

  /**
   * Boxes of a batch that will not be sold (spoiled, donated): out of the batch and out of stock,
   * each a movement with its reason. Only boxes no order is waiting for can go.
   */
  async writeOff(productId: number, batchId: number, input: WriteOff, actor: Actor): Promise<BatchView> {
    const batch = await this.deps.db.transaction(async (tx) => {
      // Product, then batch: the order every stock change locks them in.
      const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('no key update');
      if (!product) throw new NotFound('Product not found');
      const [before] = await tx.select().from(stockBatches).where(and(eq(stockBatches.id, batchId), eq(stockBatches.productId, productId))).for('update');
      if (!before) throw new NotFound('Batch not found');
      if (input.boxes > before.boxesLeft) {
        const message = `${batchLabel(before)} has only ${before.boxesLeft} ${before.boxesLeft === 1 ? 'box' : 'boxes'} left`;
        throw new Conflict(message, { boxes: message });
      }
      if (input.boxes > product.stock) {
        const message = `Only ${product.stock} ${product.stock === 1 ? 'box' : 'boxes'} of ${product.name} are free: the rest are on orders waiting to be packed`;
        throw new Conflict(message, { boxes: message });
      }
      const [after] = await tx.update(stockBatches).set({ boxesLeft: sql`${stockBatches.boxesLeft} - ${input.boxes}` }).where(eq(stockBatches.id, batchId)).returning();
      await tx.insert(batchMovements).values({ batchId, change: -input.boxes, reason: input.reason, actorUserId: actor.userId, note: input.note ?? '' });
      await tx.update(products).set({ stock: sql`${products.stock} - ${input.boxes}`, updatedAt: sql`now()` }).where(eq(products.id, productId));
      await tx.insert(stockMovements).values({ productId, change: -input.boxes, reason: input.reason, actorUserId: actor.userId, note: batchLabel(before) + (input.note ? `: ${input.note}` : '') });
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: `inventory.${input.reason}`,
        entity: 'product',
        entityId: productId,
        before: { stock: product.stock, batchId, boxesLeft: before.boxesLeft },
        after: { stock: product.stock - input.boxes, batchId, boxesLeft: after!.boxesLeft, note: input.note ?? '' },
        requestId: actor.requestId,
      });
      return after!;
    });
    await this.deps.bus.publish('products');
    return batchView(batch);
  }

  /** Batches with boxes left whose best-before is within the settings' warning days (or passed). */
  async expiring(): Promise<ExpiringBatch[]> {
    const days = (await this.deps.settings.stored()).bestBeforeWarningDays;
    const today = nzToday(this.deps.clock());
    const rows = await this.deps.db
      .select({ batch: stockBatches, name: products.name })
      .from(stockBatches)
      .innerJoin(products, eq(products.id, stockBatches.productId))
      .where(and(gt(stockBatches.boxesLeft, 0), lte(stockBatches.bestBefore, addDays(today, days))))
      .orderBy(asc(stockBatches.bestBefore), asc(stockBatches.id));
    return rows.map(({ batch, name }) => ({ ...batchView(batch), productName: name, daysLeft: daysBetween(today, batch.bestBefore!) }));
  }
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
