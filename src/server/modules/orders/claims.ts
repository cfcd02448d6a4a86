import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { cartLines, carts, orders, products, promoCodes } from '../../db/schema';
import { Conflict } from '../../lib/errors';
import { refuseBeforeOpening } from '../catalog/opening';
import type { PricedCart } from '../checkout/quote';
import type { PlaceOrderRequest } from './service';
import { preOrderedBoxes, preOrderedOfRow } from './waiting-pre-orders';

/** Counts one use of the code, unless a parallel order took the last permitted use first; true when this was its last. */
export async function claimPromoUse(tx: Tx, promoId: number): Promise<boolean> {
  const [claimed] = await tx
    .update(promoCodes)
    .set({ usedCount: sql`${promoCodes.usedCount} + 1` })
    .where(and(eq(promoCodes.id, promoId), sql`(${promoCodes.maxUses} is null or ${promoCodes.usedCount} < ${promoCodes.maxUses})`))
    .returning({ usedCount: promoCodes.usedCount, maxUses: promoCodes.maxUses });
  if (!claimed) {
    const message = 'This promo code has been fully redeemed.';
    throw new Conflict(message, { promoCode: message });
  }
  return claimed.maxUses !== null && claimed.usedCount >= claimed.maxUses;
}

/**
 * Takes in-stock boxes with `stock = stock - n where stock >= n` (in product order, so parallel
 * orders never deadlock) and checks pre-order limits; any shortfall undoes the whole order. When
 * the order's lines are written already (`linesWritten`), a pre-order's count includes its own boxes.
 */
export async function claimStock(tx: Tx, priced: PricedCart, clock: () => Date, { linesWritten }: { linesWritten: boolean }): Promise<boolean> {
  const byProduct = [...priced.lines].sort((a, b) => a.product.id - b.product.id);
  let changed = false;
  for (const { product, quantity } of byProduct) {
    if (product.isPreOrder) {
      // Under a limit, the boxes left to pre-order change: the catalogue must hear of it.
      if (await claimPreOrder(tx, product, quantity, clock, linesWritten)) changed = true;
      continue;
    }
    // Not from a product staff hid or made a pre-order since the cart was priced: on PostgreSQL
    // their change may have waited for no order in flight (decision 0045).
    const [taken] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: sql`now()` })
      .where(and(eq(products.id, product.id), gte(products.stock, quantity), eq(products.isHidden, false), eq(products.isPreOrder, false)))
      .returning({ stock: products.stock });
    if (!taken) {
      const [now] = await tx.select({ stock: products.stock, isHidden: products.isHidden, isPreOrder: products.isPreOrder }).from(products).where(eq(products.id, product.id));
      if (!now || now.isHidden) throw noLongerAvailable(product.name);
      if (now.isPreOrder) {
        const message = `${product.name} is now sold as a pre-order. Please check your cart and place the order again.`;
        throw new Conflict(message, { cart: message });
      }
      throw outOfStock(product.name, now.stock);
    }
    changed = true;
  }
  return changed;
}

/**
 * A pre-order takes no stock, but its product row is locked: a limit is counted under the lock. The
 * lock is `for no key update`, as an update of the row takes: on PostgreSQL the order holds the
 * row's key share since it priced the cart (its line references the row), and `for update` would
 * wait on every other order's share, as theirs on ours.
 */
async function claimPreOrder(tx: Tx, carted: { id: number; name: string; expectedAvailabilityDate: string | null }, quantity: number, clock: () => Date, linesWritten: boolean): Promise<boolean> {
  const productId = carted.id;
  const [product] = await tx
    .select({
      name: products.name,
      isPreOrder: products.isPreOrder,
      isHidden: products.isHidden,
      expectedAvailabilityDate: products.expectedAvailabilityDate,
      preOrdersOpenAt: products.preOrdersOpenAt,
      preOrderLimit: products.preOrderLimit,
    })
    .from(products)
    .where(eq(products.id, productId))
    .for('no key update');
  // Staff changes of the product take the same lock, and on PostgreSQL may have waited for no order
  // in flight (decision 0045): what the order took from the priced cart is checked against the row now.
  if (!product || product.isHidden) throw noLongerAvailable(carted.name);
  // Its pre-orders closed since the cart was priced (all served, now selling from stock).
  if (!product.isPreOrder) {
    const message = `${product.name} now sells from stock rather than as a pre-order. Please check your cart and place the order again.`;
    throw new Conflict(message, { cart: message });
  }
  // The order and its confirmation name the date its boxes are expected: not one staff have just moved.
  if (product.expectedAvailabilityDate !== carted.expectedAvailabilityDate) {
    const message = `The expected arrival date of ${product.name} has changed. Please check the new date in your cart and place the order again.`;
    throw new Conflict(message, { cart: message });
  }
  // Checked under the row's lock by the shop's clock, read once the lock is held: an order in
  // flight as staff move the opening sees the new time, and one queued at the opening is on time.
  refuseBeforeOpening(product, clock(), 'cart');
  if (product.preOrderLimit === null) return false;
  // With its lines written the order's own boxes are among those counted: the others' are what it may take from.
  const taken = ((await preOrderedBoxes(tx, productId)).get(productId) ?? 0) - (linesWritten ? quantity : 0);
  const left = Math.max(product.preOrderLimit - taken, 0);
  if (quantity > left) throw preOrderShortfall(product.name, left);
  return true;
}

function noLongerAvailable(name: string): Conflict {
  const message = `${name} is no longer available. Please remove it from your cart.`;
  return new Conflict(message, { cart: message });
}

function preOrderShortfall(name: string, left: number): Conflict {
  const message = left === 0 ? `Pre-orders for ${name} are full.` : `Only ${left} pre-order boxes of ${name} are left. Please lower the quantity in your cart.`;
  return new Conflict(message, { cart: message });
}

/**
 * Before a placement's transaction: a line in the shopper's cart that asks for more boxes than are
 * left (a pre-order's under its limit, or a product's stock) is refused at once, with the answer
 * the claim under the product's lock would give. In a rush, once a variety is sold out, each late
 * shopper then costs one read instead of a transaction that fails its claim (on PostgreSQL after
 * writing the order), queued behind the product's lock. Read without locks, the count is the state at one
 * moment, as true an answer as the locked count (decisions 0042, 0045). It leaves the answer to the
 * transaction when that would refuse the cart for another reason of the cart's own first: a submit
 * already placed (its order answers), a pickup, a hidden product, and, before the short line in the
 * claim's product order, a pre-order not open yet at `now`.
 */
export async function refuseSoldOut(db: Db, userId: number, input: Pick<PlaceOrderRequest, 'idempotencyKey' | 'fulfilment'>, now: Date): Promise<void> {
  if (input.fulfilment === 'pickup') return;
  const placedBefore = sql<boolean>`exists (select 1 from ${orders} where ${orders.userId} = ${userId} and ${orders.idempotencyKey} = ${input.idempotencyKey})`;
  const lines = await db
    .select({
      name: products.name,
      quantity: cartLines.quantity,
      isPreOrder: products.isPreOrder,
      isHidden: products.isHidden,
      stock: products.stock,
      preOrdersOpenAt: products.preOrdersOpenAt,
      limit: products.preOrderLimit,
      // Counted only where the limit is what this read may answer.
      taken: sql<number | null>`case when ${products.isPreOrder} and ${products.preOrderLimit} is not null then ${preOrderedOfRow} end`,
      placedBefore,
    })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .where(eq(carts.userId, userId))
    // The transaction claims in product order: the same line answers first.
    .orderBy(asc(products.id));
  if (lines.some((line) => line.placedBefore || line.isHidden)) return;
  for (const line of lines) {
    if (!line.isPreOrder) {
      if (line.stock < line.quantity) throw outOfStock(line.name, line.stock);
      continue;
    }
    if (line.preOrdersOpenAt && line.preOrdersOpenAt > now) return;
    if (line.limit === null) continue;
    const left = Math.max(line.limit - Number(line.taken ?? 0), 0);
    if (line.quantity > left) throw preOrderShortfall(line.name, left);
  }
}

function outOfStock(name: string, available: number): Conflict {
  const message =
    available === 0
      ? `Sorry, ${name} has just sold out (0 available). Please remove it from your cart.`
      : `Sorry, only ${available} of ${name} ${available === 1 ? 'is' : 'are'} available. Please lower the quantity in your cart.`;
  return new Conflict(message, { cart: message });
}
