import { and, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import { boxesOf, canSendSeparately, isRuralAddress, needsDeliveryDate } from '../../../contracts/checkout';
import { orderTotals, type Totals } from '../../../contracts/pricing';
import type { DeliverySettings } from '../../../contracts/delivery';
import type { PlacedOrder } from '../../../contracts/order';
import type { Product } from '../../../contracts/product';
import type { StoredSettings } from '../../../contracts/settings';
import type { Db, Tx } from '../../db/client';
import { cartLines, carts, orderEvents, orderLines, orders, stockMovements, users } from '../../db/schema';
import { AppError, BadRequest, Conflict, fieldError, isUniqueViolation } from '../../lib/errors';
import { queueMail } from '../../lib/mail-outbox';
import type { UserRow } from '../auth/user-view';
import { type PricedCart, type PricedLine, priceCart } from '../checkout/quote';
import { packingRegion } from '../delivery/calendar';
import { hoursText } from '../../../contracts/pickup';
import { bookPickupDay, newPickupCode, pickupDayRefusal, pickupHoursOn } from '../delivery/pickup';
import { bookChosenDate, dispatchDateFor } from '../delivery/service';
import { hasBankAccount } from '../settings/bank-account';
import { claimPromoUse, claimStock, refuseSoldOut } from './claims';
import { packingCutoff } from './pay-by';
import { confirmationMail } from './mail';
import type { OrderDeps, OrderService, PlaceOrderRequest } from './service';
import { type OrderRow, viewOf } from './view';

/** Stripe's smallest charge in NZD. */
const stripeMinimumCents = 50;

/** Placing an order: the shopper's cart becomes an order, its stock, promo use and dispatch day claimed. */
export class OrderPlacing {
  constructor(
    private readonly deps: OrderDeps,
    private readonly orders: OrderService,
  ) {}

  /**
   * Turns the shopper's cart into an order in one transaction: promo use, stock and pre-order
   * limits are claimed with conditional updates, so parallel orders never oversell; a retried
   * submit with the same idempotency key returns the first order.
   */
  async place(user: UserRow, input: PlaceOrderRequest, hooks: { committed?: () => void } = {}): Promise<PlacedOrder & { created: boolean }> {
    const { db } = this.deps;
    const settings = await this.deps.settings.stored();
    // A submit seen before (a retry, a double click) is found inside the transaction, under the
    // cart's lock, or after it when something refused this one (below).
    const delivery = await this.deps.delivery.settings();
    // What season boxes will take of each day, worked out before the transaction (and kept a few seconds).
    const reserved = await this.deps.delivery.reserved.around(delivery);
    // What each offer says of its boxes, from the catalogue's snapshot: the order's lines keep it.
    const offered = (await this.deps.offeredOrigins?.()) ?? new Map<number, Pick<Product, 'origin' | 'treatment'>>();
    // Card payment switched off is the submit's own fault: the transaction names it first.
    if (input.paymentMethod !== 'stripe' || this.deps.stripe) await refuseSoldOut(db, user.id, input, this.deps.delivery.clock());
    let placed: Awaited<ReturnType<OrderPlacing['placeInTransaction']>>;
    try {
      placed = await db.transaction((tx) => this.placeInTransaction(tx, user, input, settings, delivery, offered, reserved));
    } catch (error) {
      // A submit whose key has placed an order answers with that order, whatever else it met: the
      // key's unique index refused a second, or the first committed while this one waited for the
      // cart and was seen too late (placeInTransaction), so pricing found the cart emptied or changed.
      // Transactions that run one at a time never wait for the cart: there only the index needs it.
      const mayBeSeenLate = !this.deps.serialTransactions && error instanceof AppError && error.statusCode < 500;
      const refused = isUniqueViolation(error, 'orders_user_idempotency_key') || mayBeSeenLate;
      if (!refused) throw error;
      const order = await this.findByKey(db, user.id, input.idempotencyKey);
      if (!order) throw error;
      placed = { order, view: null, stockChanged: false, promoUsedUp: false };
    }
    // The database's part is done: what follows (the card payment with Stripe) no longer holds a placement's slot.
    hooks.committed?.();
    if (!placed.view) return { order: await this.orders.view(placed.order), checkoutUrl: null, created: false };
    // The order and its confirmation mail are committed: nothing below may turn that into an error.
    if (placed.stockChanged) await this.deps.bus.publish('products');
    // Its last permitted use taken, a code is no longer offered in the banner.
    if (placed.promoUsedUp) await this.deps.bus.publish('promos');
    let view = placed.view;
    let checkoutUrl: string | null = null;
    if (placed.order.paymentMethod === 'stripe') {
      checkoutUrl = await this.orders.startCardPayment(placed.order, user).catch((error: unknown) => {
        this.deps.log.error({ err: error, order: placed.order.number }, 'could not start the Stripe payment');
        return null;
      });
      if (checkoutUrl) view = await this.orders.view(placed.order).catch(() => view);
    }
    return { order: view, checkoutUrl, created: true };
  }

  /** The order, its view (null when an earlier submit placed it) and whether stock moved. */
  private async placeInTransaction(tx: Tx, user: UserRow, input: PlaceOrderRequest, settings: StoredSettings, delivery: DeliverySettings, offered: ReadonlyMap<number, Pick<Product, 'origin' | 'treatment'>>, reserved: ReadonlyMap<string, number>) {
    // One shopper's submits queue on the cart's row, so a double click finds the first order. The
    // order key is looked up in the same statement (nearly always it is new: the whole order is
    // read only when it is not). That statement's snapshot is taken before the lock is granted, so
    // a submit of the key that committed while this one waited is not seen here. What this one
    // then meets (a cart it emptied, a refusal, the key's unique index) is answered with the first
    // order (place).
    const placedBefore = sql<boolean>`exists (select 1 from ${orders} where ${orders.userId} = ${user.id} and ${orders.idempotencyKey} = ${input.idempotencyKey})`;
    const [cart] = await tx.select({ placedBefore }).from(carts).where(eq(carts.userId, user.id)).for('update');
    const again = cart?.placedBefore && (await this.findByKey(tx, user.id, input.idempotencyKey));
    if (again) return { order: again, view: null, stockChanged: false, promoUsedUp: false };
    if (input.paymentMethod === 'stripe' && !this.deps.stripe) {
      throw fieldError('paymentMethod', 'Card payment is not available at the moment. Please choose bank transfer.');
    }
    if (input.paymentMethod === 'bank_transfer' && !hasBankAccount(settings)) {
      throw fieldError('paymentMethod', 'Bank transfer is not available at the moment. Please pay by card.');
    }

    // Collected from the shop: no address, no delivery fee, no rural surcharge, a pickup day instead of a delivery day.
    const pickup = input.fulfilment === 'pickup' ? { date: input.pickupDate! } : null;
    if (pickup && !delivery.pickup.enabled) throw fieldError('fulfilment', 'Pickup is not offered at the moment. Please choose delivery.');
    const shipping = pickup ? collectorOf(user) : input.shipping!;
    const rural = !pickup && isRuralAddress(shipping);
    const prices = pickup ? { shippingCents: 0, ruralSurchargeCents: 0 } : { shippingCents: settings.shippingCents, ruralSurchargeCents: rural ? delivery.ruralSurchargeCents : 0 };
    // Transactions that run one at a time (the embedded database) wait on no row: their claims come
    // first, before a late order writes itself, and no product can be deleted under them.
    const { serialTransactions } = this.deps;
    const priced = await priceCart(tx, prices, user.id, input.promoCode, { lockPromo: true, holdProducts: !serialTransactions });
    if (pickup && priced.lines.some(({ product }) => product.isPreOrder)) {
      throw fieldError('fulfilment', 'Pre-orders are delivered when their boxes arrive: choose delivery for this order.');
    }
    const carted = priced.lines.map(({ product }) => product);
    // In-stock boxes sent first, pre-orders later: two orders, the first dated now, one payment.
    const separately = !pickup && input.sendSeparately && canSendSeparately(carted);
    const datedNow = !pickup && (needsDeliveryDate(carted) || separately);
    if (datedNow && !input.deliveryDate) throw fieldError('deliveryDate', 'Choose a delivery date');
    if (priced.promoProblem) {
      const status = priced.promoProblem.reason === 'used_up' || priced.promoProblem.reason === 'customer_limit' ? 409 : 400;
      const fieldErrors = { promoCode: priced.promoProblem.message };
      throw status === 409 ? new Conflict(priced.promoProblem.message, fieldErrors) : new BadRequest(priced.promoProblem.message, fieldErrors);
    }
    if (input.expectedTotalCents !== undefined && input.expectedTotalCents !== priced.totals.totalCents) {
      const message = 'Prices or your cart changed since you opened checkout. Please check the new total and place your order again.';
      throw new Conflict(message, { total: message });
    }
    if (input.paymentMethod === 'stripe' && priced.totals.totalCents < stripeMinimumCents) {
      throw fieldError('paymentMethod', 'Card payments need a total of at least $0.50. Please choose bank transfer.');
    }
    for (const { product } of priced.lines) {
      if (product.isHidden) throw new Conflict(`${product.name} is no longer available. Please remove it from your cart.`, { cart: `${product.name} is no longer available` });
    }
    // What the order records of its day is known before the day is booked: a delivery's dispatch
    // day is the chosen date less the region's lead days; a pickup day must be one with hours.
    const parts = separately ? splitCart(priced) : [{ lines: priced.lines, totals: priced.totals }];
    const first = parts[0]!;
    const boxes = boxesOf(first.lines);
    const chosen = datedNow && input.deliveryDate ? { deliveryDate: input.deliveryDate, dispatchDate: dispatchDateFor(delivery, shipping.region, input.deliveryDate), boxes } : null;
    const now = this.deps.delivery.clock();
    const payment = input.paymentMethod;
    const pickupRefused = pickup && pickupDayRefusal(delivery, pickup.date, now);
    if (pickupRefused) throw pickupRefused;
    // The claims, in the order every order locks: promo, products, then the day. A promo code's row
    // is locked from pricing, where its terms are read.
    let promoUsedUp = false;
    const claim = async () => {
      if (priced.promo) promoUsedUp = await claimPromoUse(tx, priced.promo.row.id);
      const changed = await claimStock(tx, priced, this.deps.delivery.clock, { linesWritten: !serialTransactions });
      if (chosen) await bookChosenDate(tx, { settings: delivery, region: shipping.region, boxes, now, reserved }, chosen.deliveryDate);
      if (pickup) await bookPickupDay(tx, delivery, pickup.date, now);
      return changed;
    };
    const claimedFirst = serialTransactions ? await claim() : undefined;

    const orderValues = (totals: Totals, later: { paidWithOrderId: number } | null): typeof orders.$inferInsert => ({
        userId: user.id,
        status: 'pending_payment',
        paymentMethod: input.paymentMethod,
        subtotalCents: totals.subtotalCents,
        shippingCents: totals.shippingCents,
        discountCents: totals.discountCents,
        totalCents: totals.totalCents,
        gstCents: totals.gstCents,
        // The code's one use is the first order's: the later one shares its discount, not its use.
        promoCodeId: later ? null : (priced.promo?.row.id ?? null),
        promoCode: priced.promo?.code ?? null,
        shipName: shipping.name,
        shipPhone: shipping.phone,
        shipStreet: shipping.street,
        shipSuburb: shipping.suburb,
        shipCity: shipping.city,
        shipPostcode: shipping.postcode,
        shipRegion: shipping.region,
        deliveryInstructions: shipping.deliveryInstructions,
        giftMessage: input.gift ? input.gift.message : null,
        fulfilment: pickup ? 'pickup' : 'delivery',
        pickupCode: pickup ? newPickupCode() : null,
        pickupAddress: pickup ? delivery.pickup.address : null,
        pickupHours: pickup ? hoursText(pickupHoursOn(delivery, pickup.date)!) : null,
        pickupBooked: Boolean(pickup),
        rural,
        ruralSurchargeCents: totals.ruralSurchargeCents,
        // The later delivery is dated when its boxes arrive (allocation), as any pre-order is.
        deliveryDate: later ? null : pickup ? pickup.date : (chosen?.deliveryDate ?? null),
        dispatchDate: later ? null : (chosen?.dispatchDate ?? null),
        deliveryBoxes: later ? 0 : (chosen?.boxes ?? 0),
        // ':' is outside a checkout key's pattern: no shopper's key can be this one.
        idempotencyKey: later ? `${input.idempotencyKey}:later` : input.idempotencyKey,
        // One payment for both, due by the first order's pay-by: the later one has none of its own.
        payBy: payment === 'bank_transfer' && !later ? packingCutoff(pickup ? pickup.date : (chosen?.dispatchDate ?? null), delivery.cutoffTime) : null,
        paidWithOrderId: later?.paidWithOrderId ?? null,
    });
    const [order] = await tx.insert(orders).values(orderValues(first.totals, null)).returning();
    const second = parts[1];
    const [laterOrder] = second ? await tx.insert(orders).values(orderValues(second.totals, { paidWithOrderId: order!.id })).returning() : [];
    const lineValuesOf = (orderId: number, partLines: PricedLine[]) => partLines.map(({ product, quantity }) => ({
      orderId,
      productId: product.id,
      productName: product.name,
      unitPriceCents: product.priceCents,
      quantity,
      isPreOrder: product.isPreOrder,
      expectedAvailabilityDate: product.isPreOrder ? product.expectedAvailabilityDate : null,
      originLabel: offered.get(product.id)?.origin.countries.length ? offered.get(product.id)!.origin.label : null,
      treatmentLabel: offered.get(product.id)?.treatment.kinds.length ? offered.get(product.id)!.treatment.label : null,
    }));
    const orderId = order!.id;
    const lineValues = lineValuesOf(orderId, first.lines);
    const laterLineValues = laterOrder ? lineValuesOf(laterOrder.id, second!.lines) : [];
    const event = { orderId, status: 'pending_payment' as const, note: laterOrder ? `Order placed; the pre-order boxes follow as ${laterOrder.number}` : 'Order placed', actorUserId: user.id };
    const laterEvent = laterOrder && { orderId: laterOrder.id, status: 'pending_payment' as const, note: `Order placed with ${order!.number}, sent when its boxes arrive`, actorUserId: user.id };
    const stocked = priced.lines.filter(({ product }) => !product.isPreOrder);
    // Its lines, stock movements, first event, the cart's emptying and the confirmation go in one
    // statement (queueMail's), so a placement is two writes however many lines it has.
    const writes: SQLWrapper[] = [
      tx.insert(orderLines).values([...lineValues, ...laterLineValues]),
      tx.insert(orderEvents).values(laterEvent ? [event, laterEvent] : [event]),
      tx.delete(cartLines).where(inArray(cartLines.id, priced.lines.map((line) => line.cartLineId))),
    ];
    if (stocked.length) {
      writes.push(tx.insert(stockMovements).values(stocked.map(({ product, quantity }) => ({ productId: product.id, change: -quantity, reason: 'order' as const, orderId, actorUserId: user.id }))));
    }
    // A gift's address is the recipient's: it never becomes the buyer's own.
    if (shipping.saveToProfile && !input.gift && !pickup) {
      writes.push(
        tx
          .update(users)
          .set({ phone: shipping.phone, address: shipping.street, city: shipping.city, postalCode: shipping.postcode, region: shipping.region, updatedAt: sql`now()` })
          .where(eq(users.id, user.id)),
      );
    }
    // The view of the rows as written, as orderView would read them back: lines in the order they
    // were inserted (by id), none allocated yet; the event's time is the order's, both the
    // transaction's now().
    const written = (values: typeof lineValues) => values.map((line) => ({ ...line, id: 0, allocatedAt: null, shipmentId: null, readyFrom: null, readyUntil: null, recalledBoxes: 0 }));
    const stripe = Boolean(this.deps.stripe);
    const pairOf = (row: OrderRow) => ({ id: row.id, number: row.number, totalCents: row.totalCents, paidWithOrderId: row.paidWithOrderId, status: row.status });
    const view = viewOf(order!, written(lineValues), [{ ...event, id: 0, createdAt: order!.createdAt }], settings, stripe, [], laterOrder ? pairOf(laterOrder) : null);
    if (laterOrder) {
      const laterView = viewOf(laterOrder, written(laterLineValues), [{ ...laterEvent!, id: 0, createdAt: laterOrder.createdAt }], settings, stripe, [], pairOf(order!));
      await queueMail(tx, confirmationMail(this.orders.mailContext(user, laterView, settings)));
    }
    await queueMail(tx, confirmationMail(this.orders.mailContext(user, view, settings)), { alongside: writes });

    // On PostgreSQL the claims come last, so a product's or a day's row is held only from its claim
    // to the commit: in a rush on one variety that row is the queue (decision 0045). A claim that
    // fails takes the order above back with it.
    const stockChanged = claimedFirst ?? (await claim());
    return { order: order!, view, stockChanged, promoUsedUp };
  }

  private async findByKey(db: Db | Tx, userId: number, key: string): Promise<OrderRow | undefined> {
    const [order] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
    return order;
  }
}

/**
 * A cart sent in two deliveries: the in-stock boxes (with the whole delivery charge) and the
 * pre-orders (none: the Shipping Policy sends them at no extra charge). The discount is shared in
 * proportion to each part's boxes' worth: the two totals add up to what the quote showed, to the cent.
 */
function splitCart(priced: PricedCart): Array<{ lines: PricedLine[]; totals: Totals }> {
  const { totals } = priced;
  const stocked = priced.lines.filter(({ product }) => !product.isPreOrder);
  const later = priced.lines.filter(({ product }) => product.isPreOrder);
  const worth = (lines: PricedLine[]) => lines.map(({ product, quantity }) => ({ unitPriceCents: product.priceCents, quantity }));
  const stockedSubtotal = orderTotals(worth(stocked), 0, 0).subtotalCents;
  const firstDiscount = totals.subtotalCents ? Math.round((totals.discountCents * stockedSubtotal) / totals.subtotalCents) : 0;
  const laterTotals = orderTotals(worth(later), 0, totals.discountCents - firstDiscount);
  const firstTotals = orderTotals(worth(stocked), totals.shippingCents - totals.ruralSurchargeCents, firstDiscount, totals.ruralSurchargeCents);
  // Each order's GST is its own total's (its tax invoice must be right): the two may differ from
  // the whole cart's by a cent of rounding, never the totals.
  return [
    { lines: stocked, totals: firstTotals },
    { lines: later, totals: laterTotals },
  ];
}

/** A pickup order's contact: the account holder, who collects it (staff see their name and phone at the counter). */
function collectorOf(user: UserRow) {
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return { name, phone: user.phone, street: '', suburb: '', city: '', postcode: '', region: packingRegion, deliveryInstructions: '', rural: false, saveToProfile: false };
}
