import { shopRules } from '../../contracts/shop-rules';
import { contentIds, contents, dollars, lineValue, send, type TrackedOrder, type TrackedProduct } from './analytics';

// The events only some pages send, kept out of analytics.ts, which every page loads.

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
