import { and, eq, exists, ne, or, sql } from 'drizzle-orm';
import { centsToDollars } from '../../../contracts/money';
import { discountCents, orderTotals, type PromoRefusal, promoRefusal, promoRefusalMessages, type Totals } from '../../../contracts/pricing';
import type { Db, Tx } from '../../db/client';
import { orderEvents, orders, promoCodes } from '../../db/schema';
import { BadRequest } from '../../lib/errors';
import { cartLinesOf } from '../cart/service';
import type { StoredSettings } from '../../../contracts/settings';

/** A carted product as checkout reads it: the columns cartLinesOf selects. */
type ProductRow = Awaited<ReturnType<typeof cartLinesOf>>[number]['product'];
type PromoRow = typeof promoCodes.$inferSelect;

export interface PricedLine {
  cartLineId: number;
  quantity: number;
  product: ProductRow;
}

/** What an order of the shopper's cart costs now: the quote, and the order, use exactly this. */
export interface PricedCart {
  lines: PricedLine[];
  totals: Totals;
  promo: { row: PromoRow; code: string } | null;
  promoProblem: { code: string; reason: PromoRefusal; message: string } | null;
}

/**
 * Uses of a code by one customer: orders that were not cancelled, nor refunded before they were
 * shipped (those gave their use back, as a cancel does; a refund after shipping keeps it).
 */
async function customerUses(db: Db | Tx, promoId: number, userId: number): Promise<number> {
  const shipped = db.select({ id: orderEvents.id }).from(orderEvents).where(and(eq(orderEvents.orderId, orders.id), eq(orderEvents.status, 'shipped')));
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.promoCodeId, promoId),
        eq(orders.userId, userId),
        ne(orders.status, 'cancelled'),
        or(ne(orders.status, 'refunded'), exists(shipped)),
      ),
    );
  return row?.n ?? 0;
}

export interface PriceOptions {
  now?: Date;
  /**
   * An order locks the code's row before reading its terms, so a code switched off or edited at the
   * same moment is either seen by this order or waits for it: never applied from a stale copy.
   */
  lockPromo?: boolean;
  /** An order holds its products' rows from this read (their key share): none is deleted under it (cartLinesOf). */
  holdProducts?: boolean;
}

/** Delivery as pricing sees it: the flat shipping, and the rural surcharge when the address is rural. */
export interface DeliveryPrice {
  shippingCents: StoredSettings['shippingCents'];
  /** 0 for a town address. */
  ruralSurchargeCents: number;
}

/**
 * Prices the shopper's cart with shipping (and any rural surcharge) and the promo code, if it
 * applies. The prices are passed in, read before any transaction opens: inside one only `tx` may query.
 */
export async function priceCart(
  db: Db | Tx,
  delivery: DeliveryPrice,
  userId: number,
  promoCode: string | undefined,
  { now = new Date(), lockPromo = false, holdProducts = false }: PriceOptions = {},
): Promise<PricedCart> {
  const lines: PricedLine[] = (await cartLinesOf(db, userId, { holdProducts })).map(({ line, product }) => ({ cartLineId: line.id, quantity: line.quantity, product }));
  if (!lines.length) throw new BadRequest('Your cart is empty');
  const priced = lines.map((line) => ({ unitPriceCents: line.product.priceCents, quantity: line.quantity }));
  const subtotal = orderTotals(priced, 0, 0).subtotalCents;
  let promo: PricedCart['promo'] = null;
  let promoProblem: PricedCart['promoProblem'] = null;
  if (promoCode) {
    const byCode = db.select().from(promoCodes).where(eq(sql`upper(${promoCodes.code})`, promoCode.toUpperCase()));
    const [row] = lockPromo ? await byCode.for('update') : await byCode;
    const refusal = promoRefusal(row ?? null, subtotal, now, row ? await customerUses(db, row.id, userId) : 0);
    if (refusal || !row) {
      const reason = refusal ?? 'unknown';
      promoProblem = { code: promoCode, reason, message: promoRefusalMessages[reason] };
    }
    else promo = { row, code: row.code };
  }
  const discount = promo ? discountCents(promo.row, subtotal) : 0;
  return { lines, totals: orderTotals(priced, delivery.shippingCents, discount, delivery.ruralSurchargeCents), promo, promoProblem };
}

/** The quote's JSON: dollars with 2 decimals like every price the API answers. */
export function quoteView(priced: PricedCart) {
  const { totals } = priced;
  return {
    lines: priced.lines.map(({ cartLineId, quantity, product }) => ({
      id: cartLineId,
      productId: product.id,
      name: product.name,
      imageUrl: product.imageUrl,
      unitPrice: centsToDollars(product.priceCents),
      quantity,
      lineTotal: centsToDollars(product.priceCents * quantity),
      isPreOrder: product.isPreOrder,
      expectedAvailabilityDate: product.expectedAvailabilityDate,
    })),
    subtotal: centsToDollars(totals.subtotalCents),
    /** The flat shipping; with the rural surcharge beside it they make what delivery costs. */
    shipping: centsToDollars(totals.shippingCents - totals.ruralSurchargeCents),
    ruralSurcharge: centsToDollars(totals.ruralSurchargeCents),
    discount: centsToDollars(totals.discountCents),
    gst: centsToDollars(totals.gstCents),
    total: centsToDollars(totals.totalCents),
    promo: priced.promo
      ? { code: priced.promo.code, applied: true as const, message: 'Promo code applied' }
      : priced.promoProblem
        ? { code: priced.promoProblem.code, applied: false as const, message: priced.promoProblem.message }
        : null,
  };
}
