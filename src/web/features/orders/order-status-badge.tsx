import { type OrderStatus, statusLabel } from '../../../contracts/order';
import type { Fulfilment } from '../../../contracts/pickup';

const tones: Record<OrderStatus, string> = {
  pending_payment: 'bg-mango-50 text-mango-700 ring-mango-600/40',
  paid: 'bg-white text-leaf-700 ring-leaf-700/40',
  packed: 'bg-white text-leaf-700 ring-leaf-700/40',
  shipped: 'bg-leaf-700 text-white ring-leaf-700',
  delivered: 'bg-leaf-700 text-white ring-leaf-700',
  cancelled: 'bg-white text-danger-600 ring-danger-600/40',
  refunded: 'bg-white text-ink-500 ring-ink-500/40',
};

/**
 * The status in words, a pickup order's in its own ("Ready for pickup", "Collected"). A refunded
 * order whose money has not gone back yet (`refundOwed`) says so: it is not "Refunded" until it is.
 */
export function OrderStatusBadge({ status, fulfilment = 'delivery', refundOwed = false }: { status: OrderStatus; fulfilment?: Fulfilment; refundOwed?: boolean }) {
  const label = status === 'refunded' && refundOwed ? 'Refund under way' : statusLabel(status, fulfilment);
  return <span className={`inline-block rounded-full px-3 py-0.5 text-sm font-semibold ring-1 ${tones[status]}`}>{label}</span>;
}
