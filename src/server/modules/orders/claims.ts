import { and, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { products, promoCodes } from '../../db/schema';
import { Conflict } from '../../lib/errors';
import { refuseBeforeOpening } from '../catalog/opening';
import type { PricedCart } from '../checkout/quote';
import { preOrderedBoxes } from './waiting-pre-orders';

/** Counts one use of the code, unless a parallel order took the last permitted use first. */
export async function claimPromoUse(tx: Tx, promoId: number): Promise<void> {
  const [claimed] = await tx
    .update(promoCodes)
    .set({ usedCount: sql`${promoCodes.usedCount} + 1` })
    .where(and(eq(promoCodes.id, promoId), sql`(${promoCodes.maxUses} is null or ${promoCodes.usedCount} < ${promoCodes.maxUses})`))
    .returning({ id: promoCodes.id });
  if (!claimed) {
    const message = 'This promo code has been fully redeemed.';
    throw new Conflict(message, { promoCode: message });
  }
}

/**
 * Takes in-stock boxes with `stock = stock - n where stock >= n` (in product order, so parallel
 * orders never deadlock) and checks pre-order limits; any shortfall undoes the whole order.
 */
export async function claimStock(tx: Tx, priced: PricedCart, clock: () => Date): Promise<boolean> {
  const byProduct = [...priced.lines].sort((a, b) => a.product.id - b.product.id);
  let changed = false;
  for (const { product, quantity } of byProduct) {
    if (product.isPreOrder) {
      // Under a limit, the boxes left to pre-order change: the catalogue must hear of it.
      if (await claimPreOrder(tx, product, quantity, clock)) changed = true;
      continue;
    }
    const [taken] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: sql`now()` })
      .where(and(eq(products.id, product.id), gte(products.stock, quantity)))
      .returning({ stock: products.stock });
    if (!taken) {
      const [now] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, product.id));
      throw outOfStock(product.name, now?.stock ?? 0);
    }
    changed = true;
  }
  return changed;
}

/**
 * A pre-order takes no stock, but its product row is locked: a limit is counted under the lock, and
 * a product deleted meanwhile answers 409 rather than failing the order line's reference.
 */
async function claimPreOrder(tx: Tx, carted: { id: number; name: string }, quantity: number, clock: () => Date): Promise<boolean> {
  const productId = carted.id;
  const [product] = await tx
    .select({ name: products.name, isPreOrder: products.isPreOrder, preOrdersOpenAt: products.preOrdersOpenAt, preOrderLimit: products.preOrderLimit })
    .from(products)
    .where(eq(products.id, productId))
    .for('update');
  if (!product) {
    const message = `${carted.name} is no longer available. Please remove it from your cart.`;
    throw new Conflict(message, { cart: message });
  }
  // Its pre-orders closed since the cart was priced (all served, now selling from stock).
  if (!product.isPreOrder) {
    const message = `${product.name} now sells from stock rather than as a pre-order. Please check your cart and place the order again.`;
    throw new Conflict(message, { cart: message });
  }
  // Checked under the row's lock by the shop's clock, read once the lock is held: an order in
  // flight as staff move the opening sees the new time, and one queued at the opening is on time.
  refuseBeforeOpening(product, clock(), 'cart');
  if (product.preOrderLimit === null) return false;
  const taken = (await preOrderedBoxes(tx, productId)).get(productId) ?? 0;
  const left = Math.max(product.preOrderLimit - taken, 0);
  if (quantity > left) {
    const message = left === 0 ? `Pre-orders for ${product.name} are full.` : `Only ${left} pre-order boxes of ${product.name} are left. Please lower the quantity in your cart.`;
    throw new Conflict(message, { cart: message });
  }
  return true;
}

function outOfStock(name: string, available: number): Conflict {
  const message =
    available === 0
      ? `Sorry, ${name} has just sold out (0 available). Please remove it from your cart.`
      : `Sorry, only ${available} of ${name} ${available === 1 ? 'is' : 'are'} available. Please lower the quantity in your cart.`;
  return new Conflict(message, { cart: message });
}
