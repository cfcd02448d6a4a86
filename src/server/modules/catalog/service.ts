import { createHash } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { dollarsToCents } from '../../../contracts/money';
import { preOrderProblem, type Product, type ProductFields, type ProductUpdate } from '../../../contracts/product';
import type { Db } from '../../db/client';
import { products, stockMovements } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { type CacheBus, CachedValue } from '../../lib/cache-bus';
import { NotFound, fieldError } from '../../lib/errors';
import type { SettingsService } from '../settings/service';
import { type ProductRow, toProduct } from './product-view';

export interface CatalogueSnapshot {
  all: Product[];
  visible: Product[];
  byId: Map<number, Product>;
  /** The public list, serialised once per change: the hottest read of the shop. */
  visibleJson: string;
  etag: string;
}

export interface Actor {
  userId: number;
  requestId: string;
}

/** Products, read from an in-process snapshot that every product or settings change invalidates. */
export class CatalogService {
  private readonly snapshot: CachedValue<CatalogueSnapshot>;

  constructor(
    private readonly db: Db,
    private readonly bus: CacheBus,
    private readonly settings: SettingsService,
  ) {
    this.snapshot = new CachedValue(() => this.loadSnapshot());
    bus.on('products', () => this.snapshot.invalidate());
    bus.on('settings', () => this.snapshot.invalidate());
  }

  current(): Promise<CatalogueSnapshot> {
    return this.snapshot.get();
  }

  /** Spec 7: ?search= over name, description and category, case-insensitive, any characters. */
  async search(term: string): Promise<Product[]> {
    const needle = term.trim().toLocaleLowerCase('en-NZ');
    const { visible } = await this.current();
    if (!needle) return visible;
    return visible.filter((p) =>
      [p.name, p.description, p.category].some((text) => text.toLocaleLowerCase('en-NZ').includes(needle)),
    );
  }

  /** A visible product for everyone; a hidden one only when `includeHidden` (staff). */
  async findOne(id: number, includeHidden: boolean): Promise<Product> {
    const product = (await this.current()).byId.get(id);
    if (!product || (product.isHidden && !includeHidden)) throw new NotFound('Product not found');
    return product;
  }

  async create(input: ProductFields, actor: Actor): Promise<Product> {
    checkPreOrder(input);
    const { price, rating, ...fields } = input;
    const row = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(products)
        .values({ ...fields, priceCents: dollarsToCents(price), ratingTenths: Math.round(rating * 10), boxInfo: fields.boxInfo || null })
        .returning();
      if (created!.stock > 0) {
        await tx.insert(stockMovements).values({ productId: created!.id, change: created!.stock, reason: 'opening', actorUserId: actor.userId, note: 'Opening stock' });
      }
      await recordAudit(tx, { actorUserId: actor.userId, action: 'product.create', entity: 'product', entityId: created!.id, after: created, requestId: actor.requestId });
      return created;
    });
    await this.bus.publish('products');
    return this.view(row!);
  }

  async update(id: number, input: ProductUpdate, actor: Actor): Promise<Product> {
    const row = await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(products).where(eq(products.id, id)).for('update');
      if (!before) throw new NotFound('Product not found');
      checkPreOrder({
        isPreOrder: input.isPreOrder ?? before.isPreOrder,
        expectedAvailabilityDate: input.expectedAvailabilityDate !== undefined ? input.expectedAvailabilityDate : before.expectedAvailabilityDate,
      });
      const [after] = await tx
        .update(products)
        .set({ ...toColumns(input), updatedAt: sql`now()` })
        .where(eq(products.id, id))
        .returning();
      // A stock number typed in the product editor is a correction like any other: it is a movement.
      if (after!.stock !== before.stock) {
        await tx.insert(stockMovements).values({ productId: id, change: after!.stock - before.stock, reason: 'correction', actorUserId: actor.userId, note: 'Set in the product editor' });
      }
      await recordAudit(tx, { actorUserId: actor.userId, action: input.isHidden !== undefined && Object.keys(input).length === 1 ? (input.isHidden ? 'product.hide' : 'product.show') : 'product.update', entity: 'product', entityId: id, before, after, requestId: actor.requestId });
      return after!;
    });
    await this.bus.publish('products');
    return this.view(row);
  }

  async remove(id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.delete(products).where(eq(products.id, id)).returning();
      if (!before) throw new NotFound('Product not found');
      await recordAudit(tx, { actorUserId: actor.userId, action: 'product.delete', entity: 'product', entityId: id, before, requestId: actor.requestId });
    });
    await this.bus.publish('products');
  }

  private async view(row: ProductRow): Promise<Product> {
    return toProduct(row, (await this.settings.stored()).lowStockThreshold);
  }

  private async loadSnapshot(): Promise<CatalogueSnapshot> {
    const [rows, stored] = await Promise.all([this.db.select().from(products).orderBy(asc(products.id)), this.settings.stored()]);
    const all = rows.map((row) => toProduct(row, stored.lowStockThreshold));
    const visible = all.filter((p) => !p.isHidden);
    const visibleJson = JSON.stringify(visible);
    return {
      all,
      visible,
      byId: new Map(all.map((p) => [p.id, p])),
      visibleJson,
      etag: `"${createHash('sha1').update(visibleJson).digest('base64url')}"`,
    };
  }
}

function checkPreOrder(product: Pick<ProductFields, 'isPreOrder' | 'expectedAvailabilityDate'>): void {
  const problem = preOrderProblem(product);
  if (problem) throw fieldError('expectedAvailabilityDate', problem);
}

function toColumns(input: Partial<ProductFields>): Partial<typeof products.$inferInsert> {
  const { price, rating, ...rest } = input;
  return {
    ...rest,
    ...(price !== undefined && { priceCents: dollarsToCents(price) }),
    ...(rating !== undefined && { ratingTenths: Math.round(rating * 10) }),
    ...(rest.boxInfo !== undefined && { boxInfo: rest.boxInfo || null }),
  };
}
