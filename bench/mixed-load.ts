import { randomUUID } from 'node:crypto';
import { benchShipping as shipping, jsonHeaders, type Shopper } from './shoppers';

/** An in-stock variety for the cart cycle, and Chausa: a pre-order without a limit in the seeded catalogue, so orders never run out. */
const cartProductId = 1;
const orderProductId = 6;
/** Every this many rounds a shopper also places an order: a few orders among many reads. */
const orderEvery = 10;


export interface MixedLoadResult {
  requests: number;
  /** Requests that did not answer 2xx, or failed. */
  failed: number;
  orders: number;
  seconds: number;
}

/**
 * What a shop's day looks like, squeezed: every shopper loops for `seconds` through the product
 * list, one product, a cart add/update/remove cycle and, every tenth round, a box ordered by bank
 * transfer. All shoppers run at once.
 */
export async function mixedLoad(baseUrl: string, shoppers: Shopper[], seconds: number): Promise<MixedLoadResult> {
  const productIds = ((await (await fetch(`${baseUrl}/api/products`)).json()) as Array<{ id: number }>).map((product) => product.id);
  const result: MixedLoadResult = { requests: 0, failed: 0, orders: 0, seconds };
  const endAt = performance.now() + seconds * 1000;
  const call = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    result.requests += 1;
    try {
      const response = await fetch(`${baseUrl}${path}`, init);
      const body = await response.text();
      if (!response.ok) {
        result.failed += 1;
        return undefined;
      }
      return body ? JSON.parse(body) : undefined;
    } catch {
      result.failed += 1;
      return undefined;
    }
  };
  await Promise.all(
    shoppers.map(async (shopper, index) => {
      const cart = `/api/cart/${shopper.id}/items`;
      const post = (body: unknown) => ({ method: 'POST', headers: jsonHeaders(shopper.cookie), body: JSON.stringify(body) });
      for (let round = index; performance.now() < endAt; round += 1) {
        await call('/api/products');
        await call(`/api/products/${productIds[round % productIds.length]}`);
        const added = (await call(cart, post({ productId: cartProductId, quantity: 1 }))) as { items: Array<{ id: number; productId: number }> } | undefined;
        const line = added?.items.find((item) => item.productId === cartProductId);
        if (line) {
          await call(`${cart}/${line.id}`, { method: 'PUT', headers: jsonHeaders(shopper.cookie), body: JSON.stringify({ quantity: 2 }) });
          await call(`${cart}/${line.id}`, { method: 'DELETE', headers: { cookie: shopper.cookie } });
        }
        if (round % orderEvery === orderEvery - 1) {
          await call(cart, post({ productId: orderProductId, quantity: 1 }));
          if (await call('/api/orders', post({ shipping, idempotencyKey: randomUUID() }))) result.orders += 1;
        }
      }
    }),
  );
  return result;
}
