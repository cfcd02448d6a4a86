import { Link } from 'react-router';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ArrowLeft, Mail, Printer } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type AdminOrderDetail as Detail, type OrderStatusChange, orderStatusChangeSchema, statusChangeProblems } from '../../../../contracts/admin-orders';
import { formatDateTime, formatDay, nzToday } from '../../../../contracts/dates';
import { refundStateLabels } from '../../../../contracts/refunds';
import { formatPrice } from '../../../lib/format';
import { postReleaseHold } from '../inventory/recalls-api';
import { carrierLabels, carriers, nextStatuses, type OrderStatus, paymentMethodLabels, refundReturnsStockFrom, statusLabel } from '../../../../contracts/order';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { DeliveryDay, TrackingLink } from '../../orders/delivery-day';
import { OrderLineList } from '../../orders/order-line-list';
import { OrderStatusBadge } from '../../orders/order-status-badge';
import { OrderTimeline } from '../../orders/order-timeline';
import { OrderTotals } from '../../orders/order-totals';
import { fetchStaffOrder, postOrderStatus, postResendEmail, staffOrderKey } from '../shared/admin-api';
import { OrderNotes } from './order-notes';
import { GiftBadge } from '../shared/gift-badge';
import { BatchSources, PackingSlip } from './packing-slip';

/** What each step is called on its button, and what the confirmation says it does. */
const steps: Record<OrderStatus, { action: string; explains: string }> = {
  pending_payment: { action: 'Mark awaiting payment', explains: '' },
  paid: { action: 'Mark paid', explains: 'The customer is e-mailed that the payment arrived.' },
  packed: { action: 'Mark packed', explains: 'The order is ready to ship.' },
  shipped: { action: 'Mark shipped', explains: 'The customer is e-mailed the carrier, the tracking number and a link to follow the parcel.' },
  delivered: { action: 'Mark delivered', explains: 'The order is complete.' },
  cancelled: { action: 'Cancel order', explains: 'The boxes go back into stock and the customer is e-mailed. This cannot be undone.' },
  refunded: { action: 'Record refund', explains: 'Gives back what is left of the payment and e-mails the customer. This cannot be undone.' },
};

/** A pickup order's steps read as what happens at the shop. */
const pickupSteps: Partial<Record<OrderStatus, { action: string; explains: string }>> = {
  packed: { action: 'Mark packed', explains: 'The boxes are packed for pickup.' },
  shipped: { action: 'Mark ready for pickup', explains: 'The customer is e-mailed that the order is ready, with the pickup code, the address and the hours.' },
  delivered: { action: 'Mark collected', explains: 'Check the pickup code first. The order is complete.' },
};

const stepOf = (order: Detail, status: OrderStatus) => (order.fulfilment === 'pickup' ? pickupSteps[status] : undefined) ?? steps[status];

/** What recording a refund does to stock, as the server does it: unsent boxes go back, sent ones stay sold. */
function refundStockNote(order: Detail): string {
  if (order.status === 'cancelled') return 'No boxes go back: they went back to stock when the order was cancelled.';
  if (!refundReturnsStockFrom.includes(order.status)) return 'No boxes go back: the order was already sent.';
  // Boxes the order holds: in-stock lines, and pre-order lines given boxes from a shipment.
  const held = order.lines.filter((line) => (!line.isPreOrder || line.allocated) && line.productId !== null);
  const boxes = held.reduce((sum, line) => sum + line.quantity, 0);
  const waiting = order.lines.some((line) => line.isPreOrder && !line.allocated);
  if (boxes === 0) return waiting ? 'No boxes go back: its pre-orders are still waiting for their shipment.' : 'No boxes go back: the products are no longer in the shop.';
  return `${boxes} ${boxes === 1 ? 'box goes' : 'boxes go'} back to stock.${waiting ? ' Pre-orders still waiting took none.' : ''}`;
}

/** One order for staff: customer, lines, totals with GST, address, payment, timeline and its next steps. */
export function AdminOrderDetail({ number, onBack }: { number: string; onBack: () => void }) {
  const query = useQuery({ queryKey: staffOrderKey(number), queryFn: ({ signal }) => fetchStaffOrder(number, signal), retry: false });
  const back = (
    <button type="button" onClick={onBack} className="inline-flex items-center gap-1 justify-self-start font-semibold text-mango-700 hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" /> All orders
    </button>
  );
  if (query.isPending) return <Spinner />;
  if (!query.data) {
    return (
      <section className="grid gap-3">
        {back}
        <h1 className="text-3xl font-semibold">Order {number} not found</h1>
      </section>
    );
  }
  return <OrderSheet order={query.data} back={back} />;
}

function OrderSheet({ order, back }: { order: Detail; back: React.ReactNode }) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<OrderStatus | null>(null);
  const [tracking, setTracking] = useState('');
  const [carrier, setCarrier] = useState<string>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [slipOpen, setSlipOpen] = useState(false);
  const change = useMutation({
    mutationFn: (change: OrderStatusChange) => postOrderStatus(order.number, change),
    onSuccess(next, { status: to }) {
      queryClient.setQueryData(staffOrderKey(order.number), next);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] });
      setStep(null);
      toast({ title: `Order ${order.number}: ${statusLabel(to, order.fulfilment)}` });
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      else {
        setStep(null);
        void queryClient.invalidateQueries({ queryKey: staffOrderKey(order.number) });
      }
      toast({ title: 'The order was not changed', description: body?.message, variant: 'destructive' });
    },
  });
  // The boxes a recall took come from stock received since; refused, with what is missing, until they are in.
  const release = useMutation({
    mutationFn: () => postReleaseHold(order.number),
    onSuccess() {
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
      toast({ title: 'Hold released', description: `Order ${order.number} has its boxes and can be packed.` });
    },
    onError: (error) => toast({ title: 'The hold was not released', description: error instanceof ApiError ? error.body?.message : 'Please try again.', variant: 'destructive' }),
  });
  const resend = useMutation({
    mutationFn: () => postResendEmail(order.number),
    onSuccess: (sent) => toast({ title: 'Order e-mail sent again', description: `“${sent.subject}” to ${sent.to}` }),
    onError: (error) => toast({ title: 'The e-mail was not sent', description: error instanceof ApiError ? error.body?.message : 'Please try again.', variant: 'destructive' }),
  });
  const open = (to: OrderStatus) => {
    setErrors({});
    setNote('');
    setTracking(order.trackingNumber ?? '');
    setCarrier(order.carrier ?? '');
    setStep(to);
  };
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (!step) return;
    // The shared schema checks the step here first, with the server's own messages.
    const courier = step === 'shipped' && order.fulfilment === 'delivery';
    const parsed = orderStatusChangeSchema.safeParse({
      status: step,
      note: note.trim() || undefined,
      trackingNumber: courier ? tracking.trim() || undefined : undefined,
      carrier: courier ? carrier || undefined : undefined,
    });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    const problems = statusChangeProblems(parsed.data, order.fulfilment);
    if (Object.keys(problems).length) return setErrors(problems);
    change.mutate(parsed.data);
  };
  const address = order.shippingAddress;
  const next = nextStatuses({ ...order, onHold: order.hold !== null });
  return (
    <section className="grid gap-6">
      {back}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-3xl font-semibold">Order {order.number}</h1>
          <p className="text-ink-500">
            Placed {formatDateTime(order.placedAt)} · {paymentMethodLabels[order.paymentMethod]}
          </p>
        </div>
        <div className="flex items-center gap-2">
          {order.gift && <GiftBadge />}
          <OrderStatusBadge status={order.status} fulfilment={order.fulfilment} refundOwed={order.refunds.some((refund) => refund.state !== 'refunded')} />
        </div>
      </div>
      {(order.laterDelivery || order.paidWith) && (
        <p className="rounded-xl bg-mango-50 px-4 py-3 text-sm">
          {order.laterDelivery ? (
            <>
              One cart in two deliveries: its pre-order boxes are order{' '}
              <Link className="font-semibold text-mango-700 underline" to={`/admin/orders?${new URLSearchParams({ order: order.laterDelivery.number })}`}>
                {order.laterDelivery.number}
              </Link>
              , paid with this one{order.paymentMethod === 'bank_transfer' ? ` (one transfer of ${formatPrice(order.total + order.laterDelivery.total)})` : ''}.
            </>
          ) : (
            <>
              The pre-order boxes of order{' '}
              <Link className="font-semibold text-mango-700 underline" to={`/admin/orders?${new URLSearchParams({ order: order.paidWith! })}`}>
                {order.paidWith}
              </Link>
              , paid with it: marking either paid (or cancelling it unpaid) does the same to both.
            </>
          )}
        </p>
      )}
      {order.hold && (
        <div role="status" aria-label="On hold" className="grid gap-2 rounded-xl border border-danger-600/40 bg-white px-4 py-3 text-sm sm:flex sm:items-center sm:justify-between">
          <p>
            <span className="font-semibold text-danger-600">On hold since {formatDateTime(order.hold.since)}:</span> {order.hold.reason}. It is not packed until it has its boxes again.
          </p>
          <Button variant="outline" className="shrink-0 whitespace-nowrap" disabled={release.isPending} onClick={() => release.mutate()}>
            {release.isPending ? 'Releasing…' : 'Release hold'}
          </Button>
        </div>
      )}
      {order.waitingForStock && (
        <p className="rounded-xl bg-mango-50 px-4 py-3 text-sm">
          Waiting for pre-order boxes: it can be packed once their shipment is recorded on <Link className="font-semibold text-mango-700 underline" to="/admin/inventory">Inventory</Link>.
        </p>
      )}

      <div className="flex flex-wrap gap-2" aria-label="Next steps" role="group">
        {next.map((to) => (
          <Button key={to} variant={to === 'cancelled' || to === 'refunded' ? 'outline' : 'primary'} onClick={() => open(to)}>
            {stepOf(order, to).action}
          </Button>
        ))}
        <Button variant="ghost" onClick={() => setSlipOpen(true)}>
          <Printer className="size-4" aria-hidden="true" /> Packing slip
        </Button>
        <Button variant="ghost" disabled={resend.isPending} onClick={() => resend.mutate()}>
          <Mail className="size-4" aria-hidden="true" /> {resend.isPending ? 'Sending…' : 'Resend e-mail'}
        </Button>
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <Panel title="Items" level={3} className="gap-3">
          <OrderLineList lines={order.lines} notes={order.lineBatches.map((packing, index) => <BatchSources key={index} packing={packing} />)} />
          <OrderTotals totals={order} />
        </Panel>
        <div className="grid gap-6">
          <Panel title="Customer" level={3} className="gap-3">
            <div className="grid gap-1 text-sm break-words">
              <p>{order.customer.name}</p>
              <p>{order.customer.email}</p>
              <p>{order.customer.phone}</p>
            </div>
          </Panel>
          {order.refunds.length > 0 && (
            <Panel title="Refunds" level={3} className="gap-2">
              <ul className="grid gap-2 text-sm">
                {order.refunds.map((refund) => (
                  <li key={refund.id}>
                    <span className="font-semibold tabular-nums">{formatPrice(refund.amount)}</span> · {refundStateLabels[refund.state]}
                    {refund.state === 'owed' && (refund.accountEnding ? `, account ending ${refund.accountEnding} given` : ', waiting for the shopper’s account')}
                    {refund.state === 'refunded' && ` on ${formatDateTime(refund.refundedAt ?? refund.createdAt)}`}
                    <span className="block text-ink-500">{refund.reason}</span>
                  </li>
                ))}
              </ul>
              {order.refunds.some((refund) => refund.state !== 'refunded') && (
                <Link to="/admin" className="text-sm font-semibold text-mango-700 hover:underline">
                  Pay it from the dashboard
                </Link>
              )}
            </Panel>
          )}
          {order.gift && (
            <Panel title="Gift" level={3} className="gap-2">
              <p className="text-sm">A gift to {address.name} from {order.customer.name}: the packing slip carries the message and no prices.</p>
              {order.gift.message ? <p className="whitespace-pre-line rounded-lg bg-mango-50 p-3 font-serif">{order.gift.message}</p> : <p className="text-sm text-ink-500">No gift message.</p>}
            </Panel>
          )}
          {order.pickup ? (
            <Panel title="Pickup" level={3} className="gap-3">
              <div className="grid gap-1 text-sm">
                <p>Collected by {address.name}</p>
                <p>{address.phone}</p>
              </div>
              <DeliveryDay order={order} staff />
            </Panel>
          ) : (
            <Panel title="Deliver to" level={3} className="gap-3">
              <div className="grid gap-1 text-sm">
              <p>{address.name}</p>
              <p>{address.street}</p>
              {address.suburb && <p>{address.suburb}</p>}
              <p>
                {address.city} {address.postcode}
              </p>
              <p>{address.region}</p>
              <p>{address.phone}</p>
              {order.deliveryInstructions && <p className="text-ink-500">Instructions: {order.deliveryInstructions}</p>}
              </div>
              <DeliveryDay order={order} />
              {order.dispatchDate && <p className="text-sm">Dispatch: {formatDay(order.dispatchDate)}</p>}
              <TrackingLink order={order} />
            </Panel>
          )}
          <Panel title="Timeline" level={3} className="gap-3">
            <OrderTimeline events={order.events} fulfilment={order.fulfilment} />
          </Panel>
          <OrderNotes order={order} />
        </div>
      </div>

      <Dialog open={step !== null} onOpenChange={(isOpen) => !isOpen && setStep(null)} title={step ? stepOf(order, step).action : 'Change status'} titled>
        {step && (
          <form onSubmit={confirm} noValidate className="grid gap-4">
            <DialogTitle className="pr-8 text-2xl font-semibold">
              {stepOf(order, step).action}: <span className="whitespace-nowrap">{order.number}?</span>
            </DialogTitle>
            <DialogDescription className="text-ink-500">{stepOf(order, step).explains}</DialogDescription>
            {step === 'refunded' && (
              <>
                <p>
                  {order.refundBy === 'card'
                    ? 'It goes back to the card they paid with, through Stripe, as soon as you confirm.'
                    : 'They did not pay by card: they are asked for their bank account, and the refund stays on the dashboard as owed until you mark it paid out.'}
                </p>
                <p className="font-semibold">{refundStockNote(order)}</p>
              </>
            )}
            {step === 'delivered' && order.pickup && (
              <p className="rounded-lg bg-mango-50 px-3 py-2">
                Pickup code: <strong className="font-mono text-lg tracking-widest">{order.pickup.code}</strong>
              </p>
            )}
            {step === 'shipped' && order.fulfilment === 'delivery' && order.dispatchDate && order.dispatchDate > nzToday() && (
              <p role="alert" className="rounded-lg bg-mango-50 px-3 py-2 font-medium text-ink-900">
                Its dispatch day is {formatDay(order.dispatchDate)}: marking it shipped now tells the customer it is on its way before then. Ship early only if the parcel has really left.
              </p>
            )}
            {step === 'shipped' && order.fulfilment === 'delivery' && (
              <>
                <SelectField label="Carrier" options={carriers} labels={carrierLabels} placeholder="Choose the carrier" value={carrier} onChange={(event) => setCarrier(event.target.value)} error={errors.carrier} autoFocus />
                <TextField label="Tracking number" value={tracking} maxLength={60} onChange={(event) => setTracking(event.target.value)} error={errors.trackingNumber} />
              </>
            )}
            <TextField label="Note (optional)" value={note} maxLength={300} onChange={(event) => setNote(event.target.value)} error={errors.note} />
            <div className="flex flex-wrap justify-end gap-3">
              <Button variant="outline" onClick={() => setStep(null)}>
                Back
              </Button>
              <Button type="submit" disabled={change.isPending}>
                {change.isPending ? 'Saving...' : stepOf(order, step).action}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
      <Dialog open={slipOpen} onOpenChange={setSlipOpen} title={`Packing slip for order ${order.number}`} titled wide>
        <PackingSlip order={order} />
      </Dialog>
    </section>
  );
}
