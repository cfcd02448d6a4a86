import { originSentence } from '../../../contracts/origin-text';
import { preOrderNote } from './order-line-list';
import { useQuery, useQueryClient } from '../../lib/query';
import { useMutation } from '../../lib/query/mutation';
import { ArrowLeft, FileText } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type OrderView, paymentMethodLabels } from '../../../contracts/order';
import { Button } from '../../components/ui/button';
import { Dialog, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { Panel } from '../../components/ui/panel';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { formatDate, formatPrice } from '../../lib/format';
import { OrderClaims } from '../claims/order-claims';
import { PairedOrderNote } from './paired-order';
import { BankDetails } from './bank-details';
import { DeliveryDay, TrackingLink } from './delivery-day';
import { OrderStatusBadge } from './order-status-badge';
import { OrderTimeline } from './order-timeline';
import { OrderTotals } from './order-totals';
import { cancelOrder, fetchOrder, orderQueryKey, ordersQueryKey } from './orders-api';
import { PayByCardButton } from './pay-by-card-button';
import { GiftNote } from './gift-note';
import { OrderRefunds } from './order-refunds';
import { Receipt } from './receipt';

/** One order of the shopper: lines, totals with GST, address, timeline, tracking, cancel and receipt. */
export function OrderDetail({ number }: { number: string }) {
  const query = useQuery({ queryKey: orderQueryKey(number), queryFn: ({ signal }) => fetchOrder(number, signal), retry: false });
  if (query.isPending) return <Spinner />;
  if (!query.data) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <div className="grid justify-items-start gap-3 rounded-2xl bg-white p-6">
        <h2 className="text-2xl font-semibold">{notFound ? 'Order not found' : 'This order could not be loaded'}</h2>
        <p className="text-ink-500">{notFound ? `There is no order ${number} in your account.` : 'Please try again in a moment.'}</p>
        <BackToOrders />
      </div>
    );
  }
  return <OrderSheet order={query.data} />;
}

function BackToOrders() {
  return (
    <Link to="/account" className="inline-flex items-center gap-1 font-semibold text-mango-700 hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" /> All orders
    </Link>
  );
}

function OrderSheet({ order }: { order: OrderView }) {
  // A delivered or collected order's shopper may review what it had (a later refund does not change that).
  const delivered = order.events.some((event) => event.status === 'delivered');
  const queryClient = useQueryClient();
  const [receiptOpen, setReceiptOpen] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  // Unpaid, the two orders of a cart sent in two deliveries are one payment: cancelling one cancels both.
  const pairedNumber = order.laterDelivery?.number ?? order.paidWith;
  const cancel = useMutation({
    mutationFn: () => cancelOrder(order.number),
    onSuccess(next) {
      queryClient.setQueryData(orderQueryKey(order.number), next);
      void queryClient.invalidateQueries({ queryKey: ordersQueryKey });
      if (pairedNumber) void queryClient.invalidateQueries({ queryKey: orderQueryKey(pairedNumber) });
      setConfirmCancel(false);
      toast({ title: 'Order cancelled', description: pairedNumber ? `Orders ${order.number} and ${pairedNumber} have been cancelled.` : `Order ${order.number} has been cancelled.` });
    },
    onError(error) {
      setConfirmCancel(false);
      void queryClient.invalidateQueries({ queryKey: orderQueryKey(order.number) });
      toast({ title: 'Could not cancel the order', description: error instanceof ApiError ? error.body?.message : undefined, variant: 'destructive' });
    },
  });
  const address = order.shippingAddress;
  return (
    <div className="grid gap-6">
      <BackToOrders />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h2 className="text-3xl font-semibold">Order {order.number}</h2>
          <p className="text-ink-500">Placed {formatDate(order.placedAt)}</p>
        </div>
        <OrderStatusBadge status={order.status} fulfilment={order.fulfilment} refundOwed={order.refunds.some((refund) => refund.state !== 'refunded')} />
      </div>

      <PairedOrderNote order={order} />

      {order.hold && (
        <section role="status" aria-label="On hold" className="grid gap-1 rounded-2xl border border-danger-600/40 bg-white p-5 sm:p-6">
          <h3 className="text-lg font-semibold">Your order is on hold</h3>
          <p>{order.hold.reason}.</p>
          <p className="text-ink-500">We are not sending boxes from that batch. Your order waits for fresh boxes; we will e-mail you when it is on its way, or contact you if we cannot replace them.</p>
        </section>
      )}

      {(order.bankTransfer || order.canPayByCard) && (
        <section className="grid gap-3 rounded-2xl bg-white p-5 sm:p-6" aria-label="Payment">
          {order.bankTransfer && <BankDetails bank={order.bankTransfer} />}
          {order.canPayByCard && (
            <>
              <p>This order is waiting for its card payment.</p>
              <PayByCardButton number={order.number} />
            </>
          )}
        </section>
      )}

      <OrderRefunds order={order} />

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
        <Panel title="Items" level={3} className="gap-3">
          <ul className="divide-y divide-mango-50">
            {order.lines.map((line) => (
              <li key={line.name} className="flex justify-between gap-4 py-2">
                <div>
                  <p className="font-medium">{line.name}</p>
                  <p className="text-sm text-ink-500">
                    {line.quantity} x {formatPrice(line.unitPrice)}
                    {line.isPreOrder ? ` · ${preOrderNote(line)}` : ''}
                  </p>
                  {line.origin && (
                    <p className="text-xs text-ink-500">
                      {originSentence(line.origin, line.treatment)}
                    </p>
                  )}
                  {delivered && line.productId !== null && (
                    <Link to={`/product/${line.productId}?review=write#write-review`} className="text-sm font-medium text-mango-700 hover:underline">
                      Review these mangoes
                    </Link>
                  )}
                </div>
                <p className="font-semibold tabular-nums">{formatPrice(line.lineTotal)}</p>
              </li>
            ))}
          </ul>
          <OrderTotals totals={order} />
          <div className="flex flex-wrap gap-3 pt-2">
            <Button variant="outline" onClick={() => setReceiptOpen(true)}>
              <FileText className="size-4" aria-hidden="true" /> View receipt
            </Button>
            {order.canCancel && (
              <Button variant="ghost" className="text-danger-600!" onClick={() => setConfirmCancel(true)}>
                Cancel order
              </Button>
            )}
          </div>
        </Panel>

        <div className="grid gap-6">
          <Panel title="Status" level={3} className="gap-3">
            <OrderTimeline events={order.events} fulfilment={order.fulfilment} />
            <TrackingLink order={order} />
          </Panel>
          <Panel title={order.pickup ? 'Pickup' : 'Delivery'} level={3} className="gap-3">
            <DeliveryDay order={order} />
            <GiftNote order={order} />
            {order.pickup ? (
              <p className="text-sm">
                Collected by {address.name}, {address.phone}
              </p>
            ) : (
            <address className="text-sm not-italic">
              {address.name}
              <br />
              {address.street}
              {address.suburb && (
                <>
                  <br />
                  {address.suburb}
                </>
              )}
              <br />
              {address.city} {address.postcode}
              <br />
              {address.region}
              <br />
              {address.phone}
            </address>
            )}
            {order.deliveryInstructions && <p className="text-sm text-ink-500">Instructions: {order.deliveryInstructions}</p>}
            <p className="text-sm text-ink-500">Payment: {paymentMethodLabels[order.paymentMethod]}</p>
          </Panel>
        </div>
      </div>

      <OrderClaims number={order.number} status={order.status} />

      <Dialog open={receiptOpen} onOpenChange={setReceiptOpen} title={`Receipt for order ${order.number}`} titled wide>
        <Receipt order={order} />
      </Dialog>
      <Dialog open={confirmCancel} onOpenChange={setConfirmCancel} title="Cancel this order?" titled>
        <div className="grid gap-4">
          <DialogTitle className="pr-8 text-2xl font-semibold">Cancel order {order.number}?</DialogTitle>
          <DialogDescription className="text-ink-500">
            The boxes go back on sale and this cannot be undone. If you have already paid, we will refund you in full.
            {pairedNumber ? ` Order ${pairedNumber} is paid for together with this one, so it is cancelled too.` : ''}
          </DialogDescription>
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="outline" onClick={() => setConfirmCancel(false)}>
              Keep order
            </Button>
            <Button variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              {cancel.isPending ? 'Cancelling...' : 'Yes, cancel order'}
            </Button>
          </div>
        </div>
      </Dialog>
    </div>
  );
}
