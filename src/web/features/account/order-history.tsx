import { useQuery } from '../../lib/query';
import { Link } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { formatDate, formatPrice } from '../../lib/format';
import { OrderStatusBadge } from '../orders/order-status-badge';
import { fetchOrders, ordersQueryKey } from '../orders/orders-api';

/** The shopper's orders, newest first: number, date, status and total. */
export function OrderHistory() {
  const query = useQuery({ queryKey: ordersQueryKey, queryFn: ({ signal }) => fetchOrders(signal) });
  if (query.isPending) return <Spinner compact label="Loading your orders..." />;
  if (query.isError) return <p role="alert" className="text-danger-600">Your orders could not be loaded. Please try again in a moment.</p>;
  if (!query.data.length) {
    return (
      <p className="text-ink-500">
        You have not placed an order yet.{' '}
        <Link to="/shop" className="font-semibold text-mango-700 hover:underline">
          Browse our mangoes
        </Link>
      </p>
    );
  }
  return (
    <ul className="divide-y divide-mango-50" aria-label="Orders, newest first">
      {query.data.map((order) => (
        <li key={order.number} className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 py-3 sm:grid-cols-[10rem_1fr_auto_7rem]">
          <Link to={`/account/orders/${order.number}`} className="font-semibold text-mango-700 hover:underline">
            {order.number}
          </Link>
          <span className="text-right text-sm text-ink-500 sm:text-left">{formatDate(order.placedAt)}</span>
          <span>
            <OrderStatusBadge status={order.status} fulfilment={order.fulfilment} />
          </span>
          <span className="text-right font-semibold tabular-nums">{formatPrice(order.total)}</span>
        </li>
      ))}
    </ul>
  );
}
