import { and, asc, eq, sql } from 'drizzle-orm';
import type { Cart } from '../../../contracts/cart';
import type { ImageInfo } from '../../../contracts/image';
import { centsToDollars } from '../../../contracts/money';
import { shopRules } from '../../../contracts/shop-rules';
import type { Db, Tx } from '../../db/client';
import { cartLines, carts, products } from '../../db/schema';
import { BadRequest, Conflict, NotFound } from '../../lib/errors';
import type { ImageSizes } from '../uploads/image-sizes';

type ProductRow = typeof products.$inferSelect;

/** Spec 5: quantity from 1 to stock; a pre-order has no stock, so it has its own per-line cap. */
function maxQuantity(product: ProductRow): number {
  return product.isPreOrder ? shopRules.maxPreOrderQuantityPerLine : product.stock;
}

function tooMany(product: ProductRow, inCart: number): BadRequest {
  const max = maxQuantity(product);
  const message = product.isPreOrder
    ? `You can pre-order at most ${max} boxes of ${product.name} in one order`
    : inCart > 0
      ? `Only ${max} of ${product.name} available, and you already have ${inCart} in your cart`
      : `Only ${max} of ${product.name} available`;
  return new BadRequest(message, { quantity: message });
}

/** A shopper's cart lines with their products, oldest line first: the cart view and checkout read these. */
export async function cartLinesOf(db: Db | Tx, userId: number) {
  return db
    .select({ line: cartLines, product: products })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .where(eq(carts.userId, userId))
    .orderBy(asc(cartLines.id));
}

/** The server-side cart of one shopper; every change answers the whole cart (spec 7). */
export class CartService {
  constructor(
    private readonly db: Db,
    private readonly imageSizes: ImageSizes,
  ) {}

  async get(userId: number): Promise<Cart> {
    return this.withPictures(await this.read(this.db, userId));
  }

  async addItem(userId: number, productId: number, quantity: number): Promise<Cart> {
    return this.withPictures(
      await this.db.transaction(async (tx) => {
        const cartId = await this.cartIdFor(tx, userId);
        // The cart row first, then the product: the order in which placing an order locks them.
        await this.touch(tx, cartId);
        const product = await this.lockProduct(tx, productId);
        if (!product.isPreOrder && product.stock === 0) {
          throw new Conflict(`${product.name} is out of stock`, { productId: `${product.name} is out of stock` });
        }
        const [line] = await tx.select().from(cartLines).where(and(eq(cartLines.cartId, cartId), eq(cartLines.productId, productId)));
        const inCart = line?.quantity ?? 0;
        if (inCart + quantity > maxQuantity(product)) throw tooMany(product, inCart);
        await tx
          .insert(cartLines)
          .values({ cartId, productId, quantity })
          .onConflictDoUpdate({ target: [cartLines.cartId, cartLines.productId], set: { quantity: sql`${cartLines.quantity} + ${quantity}` } });
        return this.read(tx, userId);
      }),
    );
  }

  async updateItem(userId: number, itemId: number, quantity: number): Promise<Cart> {
    return this.withPictures(
      await this.db.transaction(async (tx) => {
        const cartId = await this.cartIdFor(tx, userId);
        await this.touch(tx, cartId);
        const line = await this.findLine(tx, cartId, itemId);
        const product = await this.lockProduct(tx, line.productId, true);
        if (quantity > maxQuantity(product)) throw tooMany(product, 0);
        await tx.update(cartLines).set({ quantity }).where(eq(cartLines.id, itemId));
        return this.read(tx, userId);
      }),
    );
  }

  async removeItem(userId: number, itemId: number): Promise<Cart> {
    return this.withPictures(
      await this.db.transaction(async (tx) => {
        const cartId = await this.cartIdFor(tx, userId);
        await this.touch(tx, cartId);
        await this.findLine(tx, cartId, itemId);
        await tx.delete(cartLines).where(eq(cartLines.id, itemId));
        return this.read(tx, userId);
      }),
    );
  }

  async clear(userId: number): Promise<Cart> {
    const cartId = await this.cartIdFor(this.db, userId);
    await this.db.delete(cartLines).where(eq(cartLines.cartId, cartId));
    return { userId, items: [], itemCount: 0, totalPrice: 0 };
  }

  private async cartIdFor(db: Db | Tx, userId: number): Promise<number> {
    const [existing] = await db.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId));
    if (existing) return existing.id;
    const [created] = await db
      .insert(carts)
      .values({ userId })
      .onConflictDoUpdate({ target: carts.userId, set: { updatedAt: sql`now()` } })
      .returning({ id: carts.id });
    return created!.id;
  }

  private async lockProduct(tx: Tx, productId: number, allowHidden = false): Promise<ProductRow> {
    const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('share');
    if (!product || (product.isHidden && !allowHidden)) {
      throw new NotFound('Product not found');
    }
    return product;
  }

  private async findLine(tx: Tx, cartId: number, itemId: number) {
    const [line] = await tx.select().from(cartLines).where(and(eq(cartLines.id, itemId), eq(cartLines.cartId, cartId)));
    if (!line) throw new NotFound('This item is not in your cart');
    return line;
  }

  private async touch(tx: Tx, cartId: number): Promise<void> {
    await tx.update(carts).set({ updatedAt: sql`now()` }).where(eq(carts.id, cartId));
  }

  /**
   * Each line's picture size and variants, for a thumbnail that fits (read after any transaction).
   * The change is saved by then: a failure here leaves the plain picture, never an error that
   * would invite the shopper to add the same boxes again.
   */
  private async withPictures(cart: Cart): Promise<Cart> {
    const images = await this.imageSizes.describe(cart.items.map((item) => item.product.imageUrl)).catch(() => new Map<string, ImageInfo>());
    return { ...cart, items: cart.items.map((item) => ({ ...item, product: { ...item.product, image: images.get(item.product.imageUrl) ?? null } })) };
  }

  private async read(db: Db | Tx, userId: number): Promise<Cart> {
    const rows = await cartLinesOf(db, userId);
    const items = rows.map(({ line, product }) => ({
      id: line.id,
      productId: line.productId,
      quantity: line.quantity,
      product: {
        name: product.name,
        imageUrl: product.imageUrl,
        price: centsToDollars(product.priceCents),
        stock: product.stock,
        isPreOrder: product.isPreOrder,
        expectedAvailabilityDate: product.expectedAvailabilityDate,
        image: null,
      },
    }));
    const totalCents = rows.reduce((sum, { line, product }) => sum + line.quantity * product.priceCents, 0);
    return {
      userId,
      items,
      itemCount: items.reduce((sum, item) => sum + item.quantity, 0),
      totalPrice: centsToDollars(totalCents),
    };
  }
}
