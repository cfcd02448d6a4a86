import { createHash } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AdminProductPage, AdminProductQuery, AdminProductRow, ProductSortKey } from '../../../contracts/admin-products';
import { addDays, instantOfNzWallTime, nzToday } from '../../../contracts/dates';
import { dollarsToCents } from '../../../contracts/money';
import { preOrderProblem, type Product, ripeningProblem, type ProductFields, type ProductUpdate } from '../../../contracts/product';
import type { Db } from '../../db/client';
import { orderLines, products, stockMovements, subscriptionDeliveries, subscriptions } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { type CacheBus, CachedValue } from '../../lib/cache-bus';
import { cacheTags } from '../../lib/shared-cache';
import { Conflict, NotFound, fieldError } from '../../lib/errors';
import { preOrderedBoxes, waitingBoxes } from '../orders/waiting-pre-orders';
import { moveBatchesWithStock, nextHarvests, offeredOrigins, receiveBatch } from '../inventory/batches';
import { rearmAfterPostponement } from '../waitlist/opening-news';
import type { SettingsService } from '../settings/service';
import type { ImageSizes } from '../uploads/image-sizes';
import { type ProductRow, toProduct } from './product-view';

export interface CatalogueSnapshot {
  all: Product[];
  visible: Product[];
  byId: Map<number, Product>;
  /** When each archived product was archived (ISO); staff screens only. */
  archivedAt: Map<number, string>;
  /** Products whose stored Low Stock flag is on (the public flag also follows the threshold). */
  flaggedLowStock: Set<number>;
  /** The public list, serialised and encoded once per change: the hottest read of the shop. */
  visibleJson: Buffer;
  etag: string;
  /** The list's shared-cache tags: the catalogue's and each visible product's. */
  visibleTags: string[];
}

export interface Actor {
  userId: number;
  requestId: string;
}

/** Products, read from an in-process snapshot that every product or settings change invalidates. */
export class CatalogService {
  private readonly snapshot: CachedValue<CatalogueSnapshot>;
  /** Single products' answers, with the harvest their next box comes from: built on the first read after a change, not with every snapshot. */
  private readonly details: CachedValue<Map<number, Product>>;
  /** The next NZ midnight by the shop's clock, as last worked out. */
  private nextMidnight = 0;

  constructor(
    private readonly db: Db,
    private readonly bus: CacheBus,
    private readonly settings: SettingsService,
    private readonly imageSizes: ImageSizes,
    private readonly clock: () => Date,
  ) {
    this.snapshot = new CachedValue(() => this.loadSnapshot());
    this.details = new CachedValue(async () => {
      const { all } = await this.current();
      const harvests = await nextHarvests(this.db, new Map(all.map((p) => [p.id, p.stock])));
      return new Map(all.map((p) => [p.id, { ...p, nextHarvestedOn: harvests.get(p.id) ?? null }]));
    });
    for (const topic of ['products', 'settings'] as const) {
      bus.on(topic, () => {
        this.snapshot.invalidate();
        this.details.invalidate();
      });
    }
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

  /** The next pre-order opening after `now` of any product still sold (one query; the opening alarm asks after every change). */
  async nextOpening(now: Date): Promise<Date | null> {
    const [row] = await this.db
      .select({ at: sql<Date | string | null>`min(${products.preOrdersOpenAt})` })
      .from(products)
      .where(and(eq(products.isPreOrder, true), isNull(products.archivedAt), gt(products.preOrdersOpenAt, now)));
    return row?.at ? new Date(row.at) : null;
  }

  /**
   * What each product's tag and the catalogue's stand for in the shared cache, read fresh from the
   * database rather than the snapshot: a product's public answer, with its stock only as in stock
   * or not (pages are purged when it crosses zero, not with every box sold), and whether its
   * announced opening has passed; the catalogue's is which products are shown. A hidden product
   * shows nothing.
   */
  async sharedShapes(): Promise<Map<string, string>> {
    const now = this.clock().getTime();
    const snapshot = await this.loadSnapshot();
    const harvests = await nextHarvests(this.db, new Map(snapshot.all.map((p) => [p.id, p.stock])));
    const digest = (text: string) => createHash('sha1').update(text).digest('base64url');
    const shapes = new Map<string, string>();
    for (const product of snapshot.all) {
      const opened = product.preOrdersOpenAt ? Date.parse(product.preOrdersOpenAt) <= now : null;
      const shown = { ...product, stock: product.stock > 0, opened, nextHarvestedOn: harvests.get(product.id) ?? null };
      shapes.set(cacheTags.product(product.id), product.isHidden ? 'hidden' : digest(JSON.stringify(shown)));
    }
    // Which products are shown, and what a search matches them by (a search's answer carries the
    // catalogue's tag, not the ids it does not find).
    shapes.set(cacheTags.catalog, digest(JSON.stringify(snapshot.visible.map((product) => [product.id, product.name, product.description, product.category]))));
    return shapes;
  }

  /**
   * The next instant the clock alone changes what these products show: a pre-order opening, or
   * NZ midnight (ripeness and "in season" count from today). Shared copies are kept no later.
   */
  nextChangeByClock(shown: readonly Product[]): number {
    const now = this.clock().getTime();
    // Worked out once a day: the list is asked for with every visitor's page.
    if (!(now < this.nextMidnight) || now < this.nextMidnight - 25 * 60 * 60 * 1000) {
      this.nextMidnight = Date.parse(instantOfNzWallTime(`${addDays(nzToday(new Date(now)), 1)}T00:00`) ?? '') || now + 60 * 60 * 1000;
    }
    let next = this.nextMidnight;
    for (const opening of openingsOf(shown)) {
      if (opening > now) {
        if (opening < next) next = opening;
        break;
      }
    }
    return next;
  }

  /** One product as its own answer (GET /api/products/:id): with the harvest its next box comes from. */
  async withHarvest(product: Product): Promise<Product> {
    return (await this.details.get()).get(product.id) ?? { ...product, nextHarvestedOn: null };
  }

  /** That answer serialised, once per change: the product page asks for it with every visit. */
  async productJson(product: Product): Promise<Buffer> {
    const detailed = await this.withHarvest(product);
    let json = serialised.get(detailed);
    if (!json) {
      json = Buffer.from(JSON.stringify(detailed));
      serialised.set(detailed, json);
    }
    return json;
  }

  async create(input: ProductFields, actor: Actor): Promise<Product> {
    checkPreOrder(input);
    checkRipening(input);
    checkOpening(input, null, this.clock());
    const { price, rating, ...fields } = input;
    const row = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(products)
        .values({ ...fields, preOrdersOpenAt: fields.preOrdersOpenAt ? new Date(fields.preOrdersOpenAt) : null, priceCents: dollarsToCents(price), ratingTenths: Math.round(rating * 10), boxInfo: fields.boxInfo || null })
        .returning();
      if (created!.stock > 0) {
        await tx.insert(stockMovements).values({ productId: created!.id, change: created!.stock, reason: 'opening', actorUserId: actor.userId, note: 'Opening stock' });
        await receiveBatch(tx, { productId: created!.id, boxes: created!.stock, note: 'Opening stock', originCountry: created!.originCountry, treatment: created!.treatment }, 'opening', { actorUserId: actor.userId });
      }
      await recordAudit(tx, { actorUserId: actor.userId, action: 'product.create', entity: 'product', entityId: created!.id, after: created, requestId: actor.requestId });
      return created;
    });
    await this.bus.publish('products');
    return this.view(row!);
  }

  async update(id: number, input: ProductUpdate, actor: Actor): Promise<Product> {
    const row = await this.db.transaction(async (tx) => {
      // `no key update`, what the update takes anyway: orders being placed hold the row's key share
      // from pricing to commit (decision 0045), which `for update` would wait out for as long as
      // they keep coming, in a rush the whole rush.
      const [before] = await tx.select().from(products).where(eq(products.id, id)).for('no key update');
      if (!before) throw new NotFound('Product not found');
      if (before.archivedAt && input.isHidden === false) throw new Conflict(`${before.name} is archived: restore it before showing it in the shop`, { isHidden: 'Restore the product first' });
      checkPreOrder({
        isPreOrder: input.isPreOrder ?? before.isPreOrder,
        expectedAvailabilityDate: input.expectedAvailabilityDate !== undefined ? input.expectedAvailabilityDate : before.expectedAvailabilityDate,
      });
      checkRipening({
        ripeningDays: input.ripeningDays !== undefined ? input.ripeningDays : before.ripeningDays,
        daysAtBest: input.daysAtBest !== undefined ? input.daysAtBest : before.daysAtBest,
      });
      const opening = openingAfter(before, input, this.clock());
      if (before.isPreOrder && input.isPreOrder === false) {
        // Leftover stock must not go to new shoppers ahead of those who pre-ordered (decision 0015).
        const waiting = await waitingBoxes(tx, id);
        if (waiting.boxes > 0) {
          const message = `Pre-orders still wait for ${before.name}: serve, move or cancel them on Inventory → Pre-orders first`;
          throw new Conflict(message, { isPreOrder: message });
        }
      }
      const [after] = await tx
        .update(products)
        .set({ ...toColumns(input), preOrdersOpenAt: opening, updatedAt: sql`now()` })
        .where(eq(products.id, id))
        .returning();
      // A stock number typed in the product editor is a correction like any other: it is a movement.
      if (after!.stock !== before.stock) {
        await tx.insert(stockMovements).values({ productId: id, change: after!.stock - before.stock, reason: 'correction', actorUserId: actor.userId, note: 'Set in the product editor' });
        await moveBatchesWithStock(tx, id, after!.stock - before.stock, 'correction', { actorUserId: actor.userId, note: 'Set in the product editor' });
      }
      // Moved ahead after it had opened: those already told "open" wait again. The waitlist sweep
      // (started by the change) mails everyone the new time.
      const previous = before.preOrdersOpenAt;
      if (opening && previous && opening.getTime() !== previous.getTime() && previous.getTime() <= this.clock().getTime()) {
        await rearmAfterPostponement(tx, id, previous);
      }
      await recordAudit(tx, { actorUserId: actor.userId, action: input.isHidden !== undefined && Object.keys(input).length === 1 ? (input.isHidden ? 'product.hide' : 'product.show') : 'product.update', entity: 'product', entityId: id, before, after, requestId: actor.requestId });
      return after!;
    });
    await this.bus.publish('products');
    return this.view(row);
  }

  /**
   * Deletes a product no order mentions. One with orders is refused (409): archive it instead, so
   * every order keeps the product its lines point to. The row lock waits out an order being placed.
   */
  async remove(id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(products).where(eq(products.id, id)).for('update');
      if (!before) throw new NotFound('Product not found');
      const [used] = await tx.select({ orders: sql<number>`count(distinct ${orderLines.orderId})::int` }).from(orderLines).where(eq(orderLines.productId, id));
      if (used!.orders > 0) {
        throw new Conflict(`${before.name} is on ${used!.orders === 1 ? '1 order' : `${used!.orders} orders`}, so it cannot be deleted: archive it instead`);
      }
      const season = await tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.productId, id)).limit(1);
      const changed = await tx.select({ id: subscriptionDeliveries.subscriptionId }).from(subscriptionDeliveries).where(eq(subscriptionDeliveries.productId, id)).limit(1);
      if (season.length || changed.length) throw new Conflict(`${before.name} has season boxes, so it cannot be deleted: archive it instead`);
      await tx.delete(products).where(eq(products.id, id));
      await recordAudit(tx, { actorUserId: actor.userId, action: 'product.delete', entity: 'product', entityId: id, before, requestId: actor.requestId });
    });
    await this.bus.publish('products');
  }

  /** Archiving hides a product for good (it cannot be shown again until restored); restoring leaves it hidden. */
  async setArchived(id: number, archived: boolean, actor: Actor): Promise<AdminProductRow> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(products).where(eq(products.id, id)).for('no key update');
      if (!before) throw new NotFound('Product not found');
      if (Boolean(before.archivedAt) === archived) return;
      const [after] = await tx
        .update(products)
        .set(archived ? { archivedAt: sql`now()`, isHidden: true, updatedAt: sql`now()` } : { archivedAt: null, updatedAt: sql`now()` })
        .where(eq(products.id, id))
        .returning();
      await recordAudit(tx, { actorUserId: actor.userId, action: archived ? 'product.archive' : 'product.restore', entity: 'product', entityId: id, before, after, requestId: actor.requestId });
    });
    await this.bus.publish('products');
    const [row] = (await this.withOrderCounts([(await this.findOne(id, true))], await this.current()));
    return row!;
  }

  /** The admin table: search over name, category and description, a visibility filter, sorting and a page. */
  async adminPage(query: AdminProductQuery): Promise<AdminProductPage> {
    const snapshot = await this.current();
    const needle = query.q?.toLocaleLowerCase('en-NZ') ?? '';
    const shown = (p: Product) => {
      const archived = snapshot.archivedAt.has(p.id);
      if (query.show === 'archived') return archived;
      if (archived) return false;
      return query.show === 'active' || (query.show === 'hidden' ? p.isHidden : !p.isHidden);
    };
    const matches = snapshot.all.filter(
      (p) => shown(p) && (!needle || [p.name, p.category, p.description].some((text) => text.toLocaleLowerCase('en-NZ').includes(needle))),
    );
    const sorted = [...matches].sort((a, b) => compareProducts(a, b, query.sort) * (query.dir === 'desc' ? -1 : 1) || a.id - b.id);
    const start = (query.page - 1) * query.pageSize;
    return {
      products: await this.withOrderCounts(sorted.slice(start, start + query.pageSize), snapshot),
      total: matches.length,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  private async withOrderCounts(page: Product[], snapshot: CatalogueSnapshot): Promise<AdminProductRow[]> {
    const ids = page.map((p) => p.id);
    const counts = ids.length
      ? await this.db
          .select({ productId: orderLines.productId, orders: sql<number>`count(distinct ${orderLines.orderId})::int` })
          .from(orderLines)
          .where(inArray(orderLines.productId, ids))
          .groupBy(orderLines.productId)
      : [];
    const byProduct = new Map(counts.map((row) => [row.productId, row.orders]));
    return page.map((p) => ({ ...p, alwaysLowStock: snapshot.flaggedLowStock.has(p.id), archivedAt: snapshot.archivedAt.get(p.id) ?? null, orderCount: byProduct.get(p.id) ?? 0 }));
  }

  private async view(row: ProductRow): Promise<Product> {
    const [stored, images, preOrdered, offered] = await Promise.all([this.settings.stored(), this.imageSizes.describe([row.imageUrl]), preOrderedBoxes(this.db, row.id), offeredOrigins(this.db, [row])]);
    return toProduct(row, stored.lowStockThreshold, images.get(row.imageUrl), preOrdered.get(row.id) ?? 0, offered.get(row.id));
  }

  private async loadSnapshot(): Promise<CatalogueSnapshot> {
    const [rows, stored, preOrdered] = await Promise.all([this.db.select().from(products).orderBy(asc(products.id)), this.settings.stored(), preOrderedBoxes(this.db)]);
    const [images, offered] = await Promise.all([this.imageSizes.describe(rows.map((row) => row.imageUrl)), offeredOrigins(this.db, rows)]);
    const all = rows.map((row) => toProduct(row, stored.lowStockThreshold, images.get(row.imageUrl), preOrdered.get(row.id) ?? 0, offered.get(row.id)));
    const visible = all.filter((p) => !p.isHidden);
    const visibleJson = Buffer.from(JSON.stringify(visible));
    return {
      all,
      visible,
      byId: new Map(all.map((p) => [p.id, p])),
      flaggedLowStock: new Set(rows.filter((row) => row.isLowStock).map((row) => row.id)),
      archivedAt: new Map(rows.flatMap((row) => (row.archivedAt ? [[row.id, row.archivedAt.toISOString()] as const] : []))),
      visibleJson,
      visibleTags: [cacheTags.catalog, ...visible.map((p) => cacheTags.product(p.id))],
      etag: `"${createHash('sha1').update(visibleJson).digest('base64url')}"`,
    };
  }
}

/** Single products' answers as sent, kept with the object they were made from (dropped with it at the next change). */
const serialised = new WeakMap<Product, Buffer>();

/** The pre-order openings of a list of products, ascending: worked out once per list (the snapshot's lists live until a change). */
const openings = new WeakMap<readonly Product[], number[]>();
function openingsOf(shown: readonly Product[]): number[] {
  let known = openings.get(shown);
  if (!known) {
    known = shown.flatMap((product) => (product.preOrdersOpenAt ? [Date.parse(product.preOrdersOpenAt)] : [])).sort((a, b) => a - b);
    if (shown.length > 1) openings.set(shown, known);
  }
  return known;
}

const collator = new Intl.Collator('en-NZ', { sensitivity: 'base', numeric: true });

function compareProducts(a: Product, b: Product, key: ProductSortKey): number {
  if (key === 'name') return collator.compare(a.name, b.name);
  if (key === 'category') return collator.compare(a.category, b.category) || collator.compare(a.name, b.name);
  if (key === 'newest') return a.id - b.id;
  return a[key] - b[key];
}

function checkRipening(product: Pick<ProductFields, 'ripeningDays' | 'daysAtBest'>): void {
  const problem = ripeningProblem(product);
  if (problem) throw fieldError(problem.field, problem.message);
}

function checkPreOrder(product: Pick<ProductFields, 'isPreOrder' | 'expectedAvailabilityDate'>): void {
  const problem = preOrderProblem(product);
  if (problem) throw fieldError('expectedAvailabilityDate', problem);
}

const openingHorizonMs = 366 * 24 * 60 * 60 * 1000;

/** A new opening time must lie ahead of the shop's clock, and within a year. */
function checkOpening(input: Pick<ProductFields, 'isPreOrder' | 'preOrdersOpenAt'>, stored: Date | null, now: Date): void {
  if (!input.preOrdersOpenAt) return;
  if (!input.isPreOrder) throw fieldError('preOrdersOpenAt', 'Only a pre-order product can open at a set time');
  const at = Date.parse(input.preOrdersOpenAt);
  // The time already stored may come back unchanged (an editor saving the whole form after it passed).
  if (stored && stored.getTime() === at) return;
  if (at <= now.getTime()) throw fieldError('preOrdersOpenAt', 'Opening time must be in the future: leave it empty to open pre-orders now');
  if (at > now.getTime() + openingHorizonMs) throw fieldError('preOrdersOpenAt', 'Opening time must be within a year');
}

/**
 * The opening a product has after an update: the one sent, or the one it had; none once it is
 * no longer a pre-order (an opening belongs to pre-orders only).
 */
function openingAfter(before: ProductRow, input: ProductUpdate, now: Date): Date | null {
  const isPreOrder = input.isPreOrder ?? before.isPreOrder;
  if (input.preOrdersOpenAt === undefined) return isPreOrder ? before.preOrdersOpenAt : null;
  checkOpening({ isPreOrder, preOrdersOpenAt: input.preOrdersOpenAt }, before.preOrdersOpenAt, now);
  return input.preOrdersOpenAt ? new Date(input.preOrdersOpenAt) : null;
}

function toColumns(input: Partial<ProductFields>): Partial<typeof products.$inferInsert> {
  const { price, rating, preOrdersOpenAt: _opening, ...rest } = input;
  return {
    ...rest,
    ...(price !== undefined && { priceCents: dollarsToCents(price) }),
    ...(rating !== undefined && { ratingTenths: Math.round(rating * 10) }),
    ...(rest.boxInfo !== undefined && { boxInfo: rest.boxInfo || null }),
  };
}
