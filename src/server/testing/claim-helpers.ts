import { expect } from 'vitest';
import type { OrderClaims } from '../../contracts/claims';
import type { OrderStatus, PlacedOrder } from '../../contracts/order';
import { quickShopper, testProduct } from './order-helpers';
import type { StaffCall, TestShop } from './test-app';

/** A shopper's delivered order: 3 boxes of one product ($50.00 each) and 2 of another ($40.00). */
export async function deliveredOrder(shop: TestShop, staff: StaffCall, options: { promoCode?: string; stock?: number; until?: OrderStatus } = {}) {
  const first = await testProduct(shop, { name: 'Claim Alphonso', priceCents: 5000, stock: options.stock ?? 20 });
  const second = await testProduct(shop, { name: 'Claim Kesar', priceCents: 4000, stock: 20 });
  const shopper = await quickShopper(shop, 'claim');
  await shopper.add(first.id, 3);
  await shopper.add(second.id, 2);
  const placed = await shopper.order(options.promoCode ? { promoCode: options.promoCode } : {});
  expect(placed.statusCode, placed.body).toBe(201);
  const order = (placed.json() as PlacedOrder).order;
  const steps: OrderStatus[] = ['paid', 'packed', 'shipped', 'delivered'];
  for (const status of steps.slice(0, steps.indexOf(options.until ?? 'delivered') + 1)) {
    const response = await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status, ...(status === 'shipped' ? { carrier: 'nz_post', trackingNumber: 'NZP-42' } : {}) } });
    expect(response.statusCode, response.body).toBe(200);
  }
  const claimsNow = await shopper.call({ method: 'GET', url: `/api/orders/${order.number}/claims` });
  expect(claimsNow.statusCode, claimsNow.body).toBe(200);
  const lines = claimsNow.json<OrderClaims>().lines;
  return { first, second, shopper, order, lines };
}

export const claimBoundary = 'claim-boundary-7';

/** A photo form's opening: its JSON field ("claim", "review"), as the browser sends it before the photos. */
export function jsonField(name: string, value: unknown): Buffer {
  return Buffer.from(`--${claimBoundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`);
}

/** The claim form's opening: the claim as a JSON field. */
export const claimField = (claim: unknown) => jsonField('claim', claim);

/** One photo part's head, before its bytes. */
export function photoHead(index: number): Buffer {
  return Buffer.from(`--${claimBoundary}\r\ncontent-disposition: form-data; name="photos"; filename="photo${index}.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`);
}

/** A whole photo form: the JSON field and its photos as files. */
export function photoForm(name: string, value: unknown, photos: Buffer[]) {
  const parts: Buffer[] = [jsonField(name, value)];
  photos.forEach((bytes, index) => parts.push(photoHead(index), bytes, Buffer.from('\r\n')));
  parts.push(Buffer.from(`--${claimBoundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${claimBoundary}` }, payload: Buffer.concat(parts) };
}

/** The whole claim form: the claim and its photos as files. */
export const claimForm = (claim: unknown, photos: Buffer[]) => photoForm('claim', claim, photos);

export const bruised = (lineId: number, quantity: number, outcome: 'refund' | 'replacement' = 'refund') => ({
  lines: [{ lineId, quantity }],
  reason: 'bruised',
  description: 'Two of the mangoes arrived with deep bruises on one side.',
  outcome,
});
