import type { Product } from '../../../contracts/product';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Cart } from '../../../contracts/cart';
import type { ImageInfo } from '../../../contracts/image';
import { centsToDollars } from '../../../contracts/money';
import { shopRules } from '../../../contracts/shop-rules';
import type { Db, Tx } from '../../db/client';
import { cartLines, carts, products } from '../../db/schema';
import { BadRequest, Conflict, NotFound } from '../../lib/errors';
import { refuseBeforeOpening } from '../catalog/opening';
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

/** What checkout reads of a carted product: its price, what the order line keeps, and what placing checks. */
const cartedProductColumns = {
  id: products.id,
  name: products.name,
  priceCents: products.priceCents,
  imageUrl: products.imageUrl,
  isPreOrder: products.isPreOrder,
  expectedAvailabilityDate: products.expectedAvailabilityDate,
  isHidden: products.isHidden,
};

/**
 * A shopper's cart lines with what checkout needs of their products, oldest line first: checkout
 * prices these. `holdProducts` (in an order's transaction) takes each product row's key share, as
 * the order's lines referencing them will: a product being deleted is waited for and then gone
 * from the lines, and one not yet deleted cannot be until the order is in.
 */
export async function cartLinesOf(db: Db | Tx, userId: number, { holdProducts = false } = {}) {
  const lines = db
    .select({ line: { id: cartLines.id, quantity: cartLines.quantity }, product: cartedProductColumns })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .where(eq(carts.userId, userId))
    .orderBy(asc(cartLines.id));
  return holdProducts ? lines.for('key share', { of: products }) : lines;
}

/** What the cart view shows of a line and its product; read in one statement per cart. */
const cartViewColumns = {
  id: cartLines.id,
  productId: cartLines.productId,
  quantity: cartLines.quantity,
  name: products.name,
  imageUrl: products.imageUrl,
  priceCents: products.priceCents,
  stock: products.stock,
  isPreOrder: products.isPreOrder,
  expectedAvailabilityDate: products.expectedAvailabilityDate,
};

/**
 * The server-side cart of one shopper; every change answers the whole cart (spec 7). A change is
 * one short transaction of four statements: lock the cart, read the line and its product (locked
 * for share), write, and read the cart back; on the embedded database every statement waits its
 * turn on the one connection, so fewer of them is what keeps a rush quick.
 */
export class CartService {
  /** A shopper's cart as GET /api/cart reads it, outside any transaction: built once (see SessionStore). */
  private readonly cartOfUser;

  constructor(
    private readonly db: Db,
    private readonly imageSizes: ImageSizes,
    private readonly clock: () => Date,
    /** What the catalogue says each product's boxes are (origin and treatment), from its in-process snapshot. */
    private readonly offered: () => Promise<ReadonlyMap<number, Pick<Product, 'origin' | 'treatment'>>> = async () => new Map(),
  ) {
    this.cartOfUser = cartView(db)
      .innerJoin(carts, eq(carts.id, cartLines.cartId))
      .where(eq(carts.userId, sql.placeholder('userId')))
      .orderBy(asc(cartLines.id))
      .prepare('cart_of_user');
  }

  async get(userId: number): Promise<Cart> {
    return this.withPictures(cartOf(userId, await this.cartOfUser.execute({ userId })));
  }

  async addItem(userId: number, productId: number, quantity: number): Promise<Cart> {
    return this.withPictures(
      await this.db.transaction(async (tx) => {
        // The cart row first, then the product: the order in which placing an order locks them.
        const cartId = await this.lockCart(tx, userId);
        const [found] = await tx
          .select({ product: products, inCart: cartLines.quantity })
          .from(products)
          .leftJoin(cartLines, and(eq(cartLines.productId, products.id), eq(cartLines.cartId, cartId)))
          .where(eq(products.id, productId))
          .for('share', { of: products });
        if (!found || found.product.isHidden) throw new NotFound('Product not found');
        const { product } = found;
        if (!product.isPreOrder && product.stock === 0) {
          throw new Conflict(`${product.name} is out of stock`, { productId: `${product.name} is out of stock` });
        }
        refuseBeforeOpening(product, this.clock(), 'productId');
        const inCart = found.inCart ?? 0;
        if (inCart + quantity > maxQuantity(product)) throw tooMany(product, inCart);
        await tx
          .insert(cartLines)
          .values({ cartId, productId, quantity })
          .onConflictDoUpdate({ target: [cartLines.cartId, cartLines.productId], set: { quantity: sql`${cartLines.quantity} + ${quantity}` } });
        return this.read(tx, userId, cartId);
      }),
    );
  }

  async updateItem(userId: number, itemId: number, quantity: number): Promise<Cart> {
    return this.withPictures(
      await this.db.transaction(async (tx) => {
        const cartId = await this.lockCart(tx, userId);
        // A hidden product's line may still be changed (only adding it is refused).
        const [found] = await tx
          .select({ product: products })
          .from(cartLines)
          .innerJoin(products, eq(products.id, cartLines.productId))
          .where(and(eq(cartLines.id, itemId), eq(cartLines.cartId, cartId)))
          .for('share', { of: products });
        if (!found) throw new NotFound('This item is not in your cart');
        if (quantity > maxQuantity(found.product)) throw tooMany(found.product, 0);
        await tx.update(cartLines).set({ quantity }).where(eq(cartLines.id, itemId));
        return this.read(tx, userId, cartId);
      }),
    );
  }

  async removeItem(userId: number, itemId: number): Promise<Cart> {
    return this.withPictures(
      await this.db.transaction(async (tx) => {
        const cartId = await this.lockCart(tx, userId);
        const removed = await tx
          .delete(cartLines)
          .where(and(eq(cartLines.id, itemId), eq(cartLines.cartId, cartId)))
          .returning({ id: cartLines.id });
        if (!removed.length) throw new NotFound('This item is not in your cart');
        return this.read(tx, userId, cartId);
      }),
    );
  }

  async clear(userId: number): Promise<Cart> {
    const [cart] = await this.db.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId));
    if (cart) await this.db.delete(cartLines).where(eq(cartLines.cartId, cart.id));
    return { userId, items: [], itemCount: 0, totalPrice: 0 };
  }

  /**
   * Locks the shopper's cart row for this transaction, marks it changed and answers its id, in
   * one statement; a shopper's first change makes the row.
   */
  private async lockCart(tx: Tx, userId: number): Promise<number> {
    const [touched] = await tx.update(carts).set({ updatedAt: sql`now()` }).where(eq(carts.userId, userId)).returning({ id: carts.id });
    if (touched) return touched.id;
    const [created] = await tx
      .insert(carts)
      .values({ userId })
      .onConflictDoUpdate({ target: carts.userId, set: { updatedAt: sql`now()` } })
      .returning({ id: carts.id });
    return created!.id;
  }

  /**
   * Each line's picture size and variants, for a thumbnail that fits (read after any transaction).
   * The change is saved by then: a failure here leaves the plain picture, never an error that
   * would invite the shopper to add the same boxes again.
   */
  private async withPictures(cart: Cart): Promise<Cart> {
    const [images, offered] = await Promise.all([this.imageSizes.describe(cart.items.map((item) => item.product.imageUrl)).catch(() => new Map<string, ImageInfo>()), this.offered()]);
    return {
      ...cart,
      items: cart.items.map((item) => {
        const said = offered.get(item.productId);
        return { ...item, product: { ...item.product, image: images.get(item.product.imageUrl) ?? null, origin: said?.origin.label ?? null, treatment: said?.treatment.label ?? null } };
      }),
    };
  }

  /** The cart's lines, oldest first, read inside the transaction that changed them. */
  private async read(tx: Tx, userId: number, cartId: number): Promise<Cart> {
    const rows = await cartView(tx)
      .where(eq(cartLines.cartId, cartId))
      .orderBy(asc(cartLines.id));
    return cartOf(userId, rows);
  }
}

/** A cart's lines with what the cart view shows of their products; each caller picks the cart. */
function cartView(db: Db | Tx) {
  return db.select(cartViewColumns).from(cartLines).innerJoin(products, eq(products.id, cartLines.productId)).$dynamic();
}

type CartViewRow = Awaited<ReturnType<typeof cartView>>[number];

/** The cart a shopper sees, from its lines with their products. */
function cartOf(userId: number, rows: CartViewRow[]): Cart {
  const items = rows.map((row) => ({
    id: row.id,
    productId: row.productId,
    quantity: row.quantity,
    product: {
      name: row.name,
      imageUrl: row.imageUrl,
      price: centsToDollars(row.priceCents),
      stock: row.stock,
      isPreOrder: row.isPreOrder,
      expectedAvailabilityDate: row.expectedAvailabilityDate,
      image: null,
      origin: null,
      treatment: null,
    },
  }));
  const totalCents = rows.reduce((sum, row) => sum + row.quantity * row.priceCents, 0);
  return {
    userId,
    items,
    itemCount: items.reduce((sum, item) => sum + item.quantity, 0),
    totalPrice: centsToDollars(totalCents),
  };
}
