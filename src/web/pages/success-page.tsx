import { useQuery } from '../lib/query';
import { CheckCircle2 } from 'lucide-react';
import { useEffect } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { orderNumberPattern, type OrderView } from '../../contracts/order';
import { Panel } from '../components/ui/panel';
import { Spinner } from '../components/ui/spinner';
import { useAuth } from '../features/auth/auth-provider';
import { PairedOrderNote } from '../features/orders/paired-order';
import { BankDetails } from '../features/orders/bank-details';
import { DeliveryDay } from '../features/orders/delivery-day';
import { PayByCardButton } from '../features/orders/pay-by-card-button';
import { fetchOrder, orderQueryKey } from '../features/orders/orders-api';
import { OrderLineList } from '../features/orders/order-line-list';
import { OrderTotals } from '../features/orders/order-totals';
import { trackPurchase } from '../lib/analytics-events';
import { GiftNote } from '../features/orders/gift-note';
import { formatDate } from '../lib/format';

/** Issue 4: what happens next for the order just placed; the purchase is reported once. */
export default function SuccessPage() {
  const { user, checking } = useAuth();
  const [params] = useSearchParams();
  const number = (params.get('order') ?? '').toUpperCase();
  if (!user) return checking ? <Spinner /> : <Navigate to={`/auth?redirect=${encodeURIComponent(`/success?order=${number}`)}`} replace />;
  if (!orderNumberPattern.test(number)) return <NoOrder />;
  return <PlacedOrder number={number} />;
}

function NoOrder() {
  return (
    <section className="mx-auto grid max-w-xl justify-items-center gap-3 py-12 text-center">
      <h1 className="text-4xl font-semibold">Order not found</h1>
      <p className="text-ink-500">We could not find that order. Your orders are all listed in your account.</p>
      <Link to="/account" className="font-semibold text-mango-700 hover:underline">
        Go to my account
      </Link>
    </section>
  );
}

/** A card payment is confirmed by Stripe's webhook, so an unpaid card order is checked again for a while. */
const awaitingCard = (order: OrderView | undefined) => order?.paymentMethod === 'stripe' && order.status === 'pending_payment';

function PlacedOrder({ number }: { number: string }) {
  const query = useQuery({
    queryKey: orderQueryKey(number),
    queryFn: ({ signal }) => fetchOrder(number, signal),
    retry: false,
    refetchInterval: (q) => (awaitingCard(q.state.data) && q.state.dataUpdateCount < 40 ? 3000 : false),
  });
  const order = query.data;

  useEffect(() => {
    // A card order is a sale once Stripe has confirmed it; a bank-transfer order once it is placed.
    if (!order || order.status === 'cancelled' || awaitingCard(order)) return;
    trackPurchase({
      orderId: order.number,
      value: order.total,
      products: order.lines.map((line) => ({ id: line.productId ?? 0, name: line.name, price: line.unitPrice, quantity: line.quantity })),
    });
  }, [order]);

  if (query.isPending) return <Spinner />;
  if (!order) return <NoOrder />;

  const preOrders = order.lines.filter((line) => line.isPreOrder);
  return (
    <section className="mx-auto grid max-w-2xl gap-6">
      <div className="grid justify-items-center gap-2 text-center">
        <CheckCircle2 className="size-12 text-leaf-700" aria-hidden="true" />
        <h1 className="text-4xl font-semibold">Thank you for your order!</h1>
        <p className="text-lg">
          Your order number is <strong className="tabular-nums">{order.number}</strong>
        </p>
        <p className="text-ink-500">We have e-mailed you a confirmation.</p>
      </div>

      <Panel title="What happens next">
        {order.bankTransfer ? (
          <BankDetails bank={order.bankTransfer} />
        ) : awaitingCard(order) ? (
          <div className="grid gap-3">
            <p>We are waiting for Stripe to confirm your card payment. This page updates by itself.</p>
            {order.canPayByCard && <PayByCardButton number={order.number} label="Pay by card now" />}
          </div>
        ) : order.status === 'cancelled' ? (
          <p>This order has been cancelled.</p>
        ) : (
          <p className="font-semibold text-leaf-700">Payment received: thank you. We are getting your mangoes ready.</p>
        )}
        <PairedOrderNote order={order} />
        <DeliveryDay order={order} />
        <GiftNote order={order} />
        {preOrders.length > 0 && !order.deliveryDate && (
          <ul className="grid gap-2 text-sm">
            {preOrders.map((line) => (
              <li key={line.name}>
                <span className="font-semibold">{line.name}</span> (pre-order) ships after{' '}
                {line.expectedAvailabilityDate ? formatDate(line.expectedAvailabilityDate) : 'the season opens'}.
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel title="Your order" className="gap-3">
        <OrderLineList lines={order.lines} />
        <OrderTotals totals={order} />
      </Panel>

      <div className="flex flex-wrap justify-center gap-3">
        <Link to={`/account/orders/${order.number}`} className="rounded-full bg-mango-500 px-6 py-2.5 font-semibold text-ink-900 hover:bg-mango-600">
          View your order
        </Link>
        <Link to="/shop" className="rounded-full border border-ink-900 bg-white px-6 py-2.5 font-semibold hover:bg-mango-50">
          Continue shopping
        </Link>
      </div>
    </section>
  );
}
