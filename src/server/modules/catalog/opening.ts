import { notOpenYetMessage } from '../../../contracts/availability';
import type { products } from '../../db/schema';
import { Conflict } from '../../lib/errors';

/**
 * Refuses a cart add or an order for a pre-order whose opening is still ahead of the shop's clock
 * (decision 0027), naming the opening; `field` is where the form shows it.
 */
export function refuseBeforeOpening(product: Pick<typeof products.$inferSelect, 'name' | 'isPreOrder' | 'preOrdersOpenAt'>, now: Date, field: string): void {
  if (!product.isPreOrder || !product.preOrdersOpenAt || product.preOrdersOpenAt <= now) return;
  const message = notOpenYetMessage(product.name, product.preOrdersOpenAt.toISOString());
  throw new Conflict(message, { [field]: message });
}
