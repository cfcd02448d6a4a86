import { centsToDollars, dollarsToCents } from '../../contracts/money';
import { shopRules } from '../../contracts/shop-rules';
import { send } from './analytics';

// The shop's events, kept out of analytics.ts, which every page loads: the cart loads these when
// something is added, and the pages that send the others import them.

/** Spec 3's tracking data: prices and values in dollars, as the API answers them. */
export interface TrackedProduct {
  id: number;
  name: string;
  price: number;
  quantity: number;
}

export interface TrackedOrder {
  orderId: number | string;
  /** The amount the shopper pays, in dollars. */
  value: number;
  products: TrackedProduct[];
}

const dollars = (amount: number) => centsToDollars(dollarsToCents(amount));
const lineValue = (products: TrackedProduct[]) =>
  centsToDollars(products.reduce((sum, product) => sum + dollarsToCents(product.price) * product.quantity, 0));
const contentIds = (products: Array<{ id: number }>) => products.map((product) => String(product.id));
const contents = (products: TrackedProduct[]) => products.map((product) => ({ id: String(product.id), quantity: product.quantity }));

const purchasedOrders = new Set<string>();

/** Orders already reported, kept in the browser so reloading the success page is not a second sale. */
const purchasesStoreKey = 'trackedPurchases';

function purchaseTracked(orderId: string): boolean {
  if (purchasedOrders.has(orderId)) return true;
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem(purchasesStoreKey) ?? '[]') as unknown;
    return Array.isArray(stored) && stored.includes(orderId);
  } catch {
    return false;
  }
}

function rememberPurchase(orderId: string): void {
  purchasedOrders.add(orderId);
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem(purchasesStoreKey) ?? '[]') as unknown;
    const ids = Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
    globalThis.localStorage?.setItem(purchasesStoreKey, JSON.stringify([...ids, orderId].slice(-50)));
  } catch {
    // Storage may be full or blocked; the in-memory set still stops repeats on this page.
  }
}

export function trackViewContent(product: { id: number; name: string; price: number }): void {
  send('meta', 'track', 'ViewContent', {
    content_ids: contentIds([product]),
    content_name: product.name,
    content_type: 'product',
    value: dollars(product.price),
    currency: shopRules.currency,
  });
}

/** `value` is what the checkout asks for, in dollars; by default the sum of the lines. */
export function trackInitiateCheckout(products: TrackedProduct[], value: number = lineValue(products)): void {
  send('meta', 'track', 'InitiateCheckout', {
    content_ids: contentIds(products),
    content_type: 'product',
    contents: contents(products),
    num_items: products.reduce((sum, product) => sum + product.quantity, 0),
    value: dollars(value),
    currency: shopRules.currency,
  });
}

/** Once per order: a success page shown again (remount, back button) is not a second sale. */
export function trackPurchase(order: TrackedOrder): void {
  const orderId = String(order.orderId);
  if (purchaseTracked(orderId)) return;
  rememberPurchase(orderId);
  const value = dollars(order.value);
  send('ga', 'event', 'purchase', {
    transaction_id: orderId,
    value,
    currency: shopRules.currency,
    items: order.products.map((product) => ({ item_id: String(product.id), item_name: product.name, price: dollars(product.price), quantity: product.quantity })),
  });
  send('meta', 'track', 'Purchase', {
    value,
    currency: shopRules.currency,
    content_ids: contentIds(order.products),
    content_type: 'product',
    contents: contents(order.products),
  }, { eventID: `order-${orderId}` });
}

export function trackAddToCart(product: { id: number; name: string; price: number }, quantity: number): void {
  const line = { ...product, quantity };
  send('meta', 'track', 'AddToCart', {
    content_ids: contentIds([line]),
    content_name: product.name,
    content_type: 'product',
    contents: contents([line]),
    value: lineValue([line]),
    currency: shopRules.currency,
  });
}
