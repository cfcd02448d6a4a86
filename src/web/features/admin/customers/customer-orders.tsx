import { Link } from 'react-router';
import type { OrderSummary } from '../../../../contracts/order';
import { Panel } from '../../../components/ui/panel';
import { formatDate, formatPrice } from '../../../lib/format';
import { OrderStatusBadge } from '../../orders/order-status-badge';

/** A customer's orders, newest first; each opens in the orders screen. */
export function CustomerOrders({ orders }: { orders: OrderSummary[] }) {
  return (
    <Panel title="Orders" level={2} className="gap-3">
      {orders.length === 0 ? (
        <p className="text-sm text-ink-500">No orders yet.</p>
      ) : (
        <ul className="grid text-sm">
          {orders.map((order) => (
            <li key={order.number} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b border-mango-50 py-2.5 last:border-0">
              <div className="grid">
                <Link to={`/admin/orders?${new URLSearchParams({ order: order.number })}`} className="font-semibold text-mango-700 hover:underline">
                  {order.number}
                </Link>
                <span className="text-ink-500">
                  {formatDate(order.placedAt)} · {order.itemCount} {order.itemCount === 1 ? 'box' : 'boxes'}
                </span>
              </div>
              <div className="flex items-center gap-3">
                <OrderStatusBadge status={order.status} />
                <span className="w-24 text-right font-semibold tabular-nums">{formatPrice(order.total)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
