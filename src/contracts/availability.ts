import { formatter } from './formatter';
import type { Product } from './product';

type Opening = Pick<Product, 'isPreOrder' | 'preOrdersOpenAt'>;

/** A pre-order whose opening is still ahead at `now` (ms, the shop's clock): nothing may be added or ordered yet. */
export function opensLater(product: Opening, now: number): boolean {
  return product.isPreOrder && product.preOrdersOpenAt !== null && Date.parse(product.preOrdersOpenAt) > now;
}

/**
 * "Notify me" is offered while a product cannot be bought: out of stock, a pre-order whose limit
 * is reached, or one whose pre-orders open later (hidden products are never shown). No schema
 * library here: the home page's seasonal chart uses it.
 */
export function waitlistOpen(product: Pick<Product, 'isPreOrder' | 'stock' | 'preOrdersFull' | 'preOrdersOpenAt'>, now: number): boolean {
  return soldOut(product) || opensLater(product, now);
}

/** Out of stock, or a pre-order whose limit is reached: whatever the clock says, none to be had. */
export function soldOut(product: Pick<Product, 'isPreOrder' | 'stock' | 'preOrdersFull'>): boolean {
  return product.isPreOrder ? product.preOrdersFull : product.stock === 0;
}

const openingFormat = formatter(() => new Intl.DateTimeFormat('en-NZ', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Pacific/Auckland',
}));

/** When pre-orders open, in New Zealand time as shoppers say it: "Friday 4 December at 7:00 pm". */
export function formatOpening(iso: string): string {
  const parts = Object.fromEntries(openingFormat().formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} at ${parts.hour}:${parts.minute} ${(parts.dayPeriod ?? '').toLowerCase()}`.trim();
}

/** The message a refused cart add or order gives before pre-orders open. */
export function notOpenYetMessage(name: string, opensAt: string): string {
  return `Pre-orders for ${name} open ${formatOpening(opensAt)}. Join the waitlist and we will e-mail you when they open.`;
}
