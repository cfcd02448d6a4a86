import { Link } from 'react-router';
import type { OrderView } from '../../../contracts/order';
import { formatPrice } from '../../lib/format';

const orderLink = (number: string) => (
  <Link to={`/account/orders/${encodeURIComponent(number)}`} className="font-semibold text-mango-700 underline-offset-2 hover:underline">
    {number}
  </Link>
);

/** A cart sent in two deliveries: the first order names the later one, and the later one the order that pays for it. */
export function PairedOrderNote({ order }: { order: Pick<OrderView, 'laterDelivery' | 'paidWith' | 'status'> }) {
  const unpaid = order.status === 'pending_payment';
  if (order.laterDelivery) {
    return (
      <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm" data-testid="paired-order">
        Your pre-order boxes follow as order {orderLink(order.laterDelivery.number)} ({formatPrice(order.laterDelivery.total)}), sent when they arrive, at no extra delivery charge.
        {unpaid ? ' One payment here covers both orders.' : ''}
      </p>
    );
  }
  if (order.paidWith) {
    return (
      <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm" data-testid="paired-order">
        These are the pre-order boxes of order {orderLink(order.paidWith)}, sent on their own when they arrive.{' '}
        {unpaid ? 'This order is paid for with that one: please pay there.' : order.status === 'cancelled' ? 'This order is cancelled: nothing is owed for it.' : 'They were paid for with that order.'}
      </p>
    );
  }
  return null;
}
