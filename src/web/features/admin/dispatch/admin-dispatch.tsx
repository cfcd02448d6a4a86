import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { CalendarDays, Download, Printer, Store } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { addDays, formatDay, nzToday } from '../../../../contracts/dates';
import { type DispatchDay, type DispatchOrder, type MoveDelivery, moveDeliverySchema, type PickupListOrder, type ToScheduleOrder } from '../../../../contracts/dispatch';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError, apiRequest, errorMessage } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { OrderStatusBadge } from '../../orders/order-status-badge';
import { PackingSlipBody } from '../orders/packing-slip';
import { GiftBadge } from '../shared/gift-badge';
import { hoursText } from '../../../../contracts/pickup';
import { useUrlFilters } from '../shared/use-url-filters';

const dispatchKey = (date: string) => ['admin', 'dispatch', date] as const;
const fetchDispatch = (date: string, signal?: AbortSignal) => apiRequest<DispatchDay>(`/api/admin/dispatch?date=${date}`, { signal });
const moveOrder = (number: string, move: MoveDelivery) =>
  apiRequest<{ number: string; deliveryDate: string; dispatchDate: string }>(`/api/admin/orders/${encodeURIComponent(number)}/delivery-date`, { method: 'POST', body: move });

const isDay = (value: string | null): value is string => Boolean(value && /^\d{4}-\d{2}-\d{2}$/.test(value));

/** Issue 13: what is packed and handed to the courier on a day, by region, with its slips and the courier's CSV. */
export function AdminDispatch() {
  const { params, update } = useUrlFilters();
  const date = isDay(params.get('date')) ? params.get('date')! : nzToday();
  const query = useQuery({ queryKey: dispatchKey(date), queryFn: ({ signal }) => fetchDispatch(date, signal), retry: false });
  const day = query.data;
  const orders = day?.regions.flatMap((group) => group.orders) ?? [];
  const pickups = day?.pickup.orders ?? [];
  // Pickup orders are packed on their pickup day too: their slips print with the couriers'.
  const toPack = [...orders, ...pickups].filter((order) => order.readyToPack);
  return (
    <section className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4 print:hidden">
        <div className="grid gap-1">
          <h1 className="text-3xl font-semibold">Dispatch</h1>
          <p className="text-ink-500">The orders packed and handed to the courier on one day, by region.</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Button variant="outline" onClick={() => update({ date: addDays(date, -1) })} aria-label="Previous day">
            ‹
          </Button>
          <label className="grid gap-1 text-sm font-medium">
            Dispatch day
            <input
              type="date"
              value={date}
              onChange={(event) => isDay(event.target.value) && update({ date: event.target.value })}
              className="rounded-lg border border-ink-500/30 bg-white px-3 py-2 text-base"
            />
          </label>
          <Button variant="outline" onClick={() => update({ date: addDays(date, 1) })} aria-label="Next day">
            ›
          </Button>
        </div>
      </div>

      {query.isPending ? (
        <Spinner />
      ) : !day ? (
        <p role="alert" className="rounded-2xl bg-white p-6 text-danger-600">
          {errorMessage(query.error, 'The dispatch list could not be loaded.')}
        </p>
      ) : (
        <>
          <div className="grid gap-3 rounded-2xl bg-white p-5 sm:p-6 print:hidden">
            <h2 className="flex items-center gap-2 text-2xl font-semibold">
              <CalendarDays className="size-6 text-mango-600" aria-hidden="true" /> {formatDay(day.date)}
            </h2>
            <p>
              <strong className="tabular-nums">{day.booked}</strong> of <span className="tabular-nums">{day.capacity}</span> boxes booked · {orders.length}{' '}
              {orders.length === 1 ? 'order' : 'orders'}, {toPack.length} paid and ready to pack
            </p>
            {day.closed && <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm font-semibold">No dispatch today: {day.closed}</p>}
            <div className="flex flex-wrap gap-3">
              <Button onClick={() => window.print()} disabled={toPack.length === 0}>
                <Printer className="size-4" aria-hidden="true" /> Print packing slips ({toPack.length})
              </Button>
              <a
                href={`/api/admin/dispatch.csv?date=${day.date}`}
                download
                className="inline-flex items-center gap-2 rounded-full border border-ink-900 bg-white px-5 py-2 font-semibold hover:bg-mango-50">
                <Download className="size-4" aria-hidden="true" /> Courier CSV
              </a>
            </div>
          </div>

          {day.toSchedule.length > 0 && <ToSchedule orders={day.toSchedule} />}

          {day.regions.length === 0 ? (
            <p className="rounded-2xl bg-white p-6 text-ink-500 print:hidden">Nothing is booked for dispatch on {formatDay(day.date)}.</p>
          ) : (
            day.regions.map((group) => <RegionOrders key={group.region} region={group.region} orders={group.orders} dispatchDate={day.date} />)
          )}
          {(day.pickup.hours || pickups.length > 0) && <PickupList pickup={day.pickup} date={day.date} />}
          <PackingSlips orders={toPack} dispatchDate={day.date} />
        </>
      )}
    </section>
  );
}

/** An order's number (linking to it), its status, whether it goes to a rural address and whether it is a gift. */
function OrderHeadline({ order }: { order: ToScheduleOrder }) {
  return (
    <p className="flex flex-wrap items-center gap-2">
      <Link to={`/admin/orders?order=${order.number}`} className="font-semibold text-mango-700 underline">
        {order.number}
      </Link>
      <OrderStatusBadge status={order.status} />
      {order.rural && <span className="rounded-full bg-ink-900 px-2 py-0.5 text-xs font-semibold text-white">Rural</span>}
      {order.gift && <GiftBadge />}
    </p>
  );
}

function RegionOrders({ region, orders, dispatchDate }: { region: string; orders: DispatchOrder[]; dispatchDate: string }) {
  const [moving, setMoving] = useState<DispatchOrder | null>(null);
  const boxes = orders.reduce((sum, order) => sum + order.boxes, 0);
  return (
    <section aria-label={region} className="grid gap-3 rounded-2xl bg-white p-5 sm:p-6 print:hidden">
      <h2 className="text-xl font-semibold">
        {region} <span className="text-base font-normal text-ink-500">· {boxes} {boxes === 1 ? 'box' : 'boxes'}</span>
      </h2>
      <ul className="divide-y divide-mango-50">
        {orders.map((order) => (
          <li key={order.number} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="grid gap-0.5">
              <OrderHeadline order={order} />
              <p className="text-sm">
                {order.address.name} · {order.address.city} · {order.boxes} {order.boxes === 1 ? 'box' : 'boxes'} · delivery {formatDay(order.deliveryDate)}
              </p>
              {!order.readyToPack && order.status === 'pending_payment' && <p className="text-sm text-mango-700">Not paid yet: do not pack until it is.</p>}
            </div>
            {(order.status === 'pending_payment' || order.status === 'paid' || order.status === 'packed') && (
              <Button variant="outline" onClick={() => setMoving(order)}>
                Move
              </Button>
            )}
          </li>
        ))}
      </ul>
      {moving && <MoveDialog order={moving} dispatchDate={dispatchDate} onClose={() => setMoving(null)} />}
    </section>
  );
}

/** Unsent orders with no delivery day: each is given one with the same dialog that moves an order. */
function ToSchedule({ orders }: { orders: ToScheduleOrder[] }) {
  const [scheduling, setScheduling] = useState<ToScheduleOrder | null>(null);
  return (
    <section aria-labelledby="to-schedule" className="grid gap-3 rounded-2xl border-2 border-mango-500 bg-white p-5 sm:p-6 print:hidden">
      <div className="grid gap-1">
        <h2 id="to-schedule" className="text-xl font-semibold">
          To schedule <span className="text-base font-normal text-ink-500">· {orders.length} {orders.length === 1 ? 'order' : 'orders'} with no delivery day</span>
        </h2>
        <p className="text-sm text-ink-500">A claim&apos;s replacement, or a pre-order that found no free day. Give each a day to pack and send it.</p>
      </div>
      <ul className="divide-y divide-mango-50">
        {orders.map((order) => (
          <li key={order.number} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="grid gap-0.5">
              <OrderHeadline order={order} />
              <p className="text-sm">
                {order.address.name} · {order.address.city}, {order.address.region} · {order.boxes} {order.boxes === 1 ? 'box' : 'boxes'}
              </p>
            </div>
            <Button variant="outline" onClick={() => setScheduling(order)} aria-label={`Choose a delivery day for order ${order.number}`}>
              Choose a day
            </Button>
          </li>
        ))}
      </ul>
      {scheduling && <MoveDialog order={{ ...scheduling, deliveryDate: null }} dispatchDate={null} onClose={() => setScheduling(null)} />}
    </section>
  );
}

function MoveDialog({ order, dispatchDate, onClose }: { order: ToScheduleOrder & { deliveryDate: string | null }; dispatchDate: string | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [deliveryDate, setDeliveryDate] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const scheduled = order.deliveryDate !== null;
  const move = useMutation({
    mutationFn: (input: MoveDelivery) => moveOrder(order.number, input),
    onSuccess(moved) {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'dispatch'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'order', order.number] });
      toast({ title: `Order ${order.number} ${scheduled ? 'moved' : 'scheduled'}`, description: `Now delivered ${formatDay(moved.deliveryDate)}; the customer has been e-mailed.` });
      onClose();
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      setErrors(body?.fieldErrors ?? { deliveryDate: errorMessage(error, scheduled ? 'The order was not moved.' : 'The order was not given a day.') });
      if (body?.nextDeliveryDate) setDeliveryDate(body.nextDeliveryDate);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = moveDeliverySchema.safeParse({ deliveryDate, reason });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    move.mutate(parsed.data);
  };
  const title = scheduled ? `Move order ${order.number}` : `Choose a day for order ${order.number}`;
  const boxes = `${order.boxes} ${order.boxes === 1 ? 'box' : 'boxes'}`;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={title} titled>
      <form onSubmit={submit} noValidate className="grid gap-4">
        <DialogTitle className="pr-8 text-2xl font-semibold">{title}</DialogTitle>
        <DialogDescription className="text-ink-500">
          {scheduled && dispatchDate
            ? `Now delivered ${formatDay(order.deliveryDate!)} to ${order.address.region}, dispatched ${formatDay(dispatchDate)}. The new day must have room for its ${boxes}; the customer is e-mailed the change.`
            : `It has no delivery day yet. The day must have room for its ${boxes} to ${order.address.region}; the customer is e-mailed the day.`}
        </DialogDescription>
        <TextField
          label={scheduled ? 'New delivery date' : 'Delivery date'}
          type="date"
          value={deliveryDate}
          onChange={(event) => {
            setDeliveryDate(event.target.value);
            setErrors(({ deliveryDate: _answered, ...rest }) => rest);
          }}
          error={errors.deliveryDate}
          autoFocus
        />
        <TextField label="Reason for the customer (optional)" value={reason} maxLength={200} onChange={(event) => setReason(event.target.value)} error={errors.reason} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="outline" onClick={onClose}>
            Back
          </Button>
          <Button type="submit" disabled={move.isPending}>
            {move.isPending ? 'Saving...' : scheduled ? 'Move order' : 'Schedule order'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The day's click-and-collect: who collects what, with the code they show, and the day's places. */
function PickupList({ pickup, date }: { pickup: DispatchDay['pickup']; date: string }) {
  return (
    <section aria-labelledby="pickups" className="grid gap-3 rounded-2xl bg-white p-5 sm:p-6 print:hidden">
      <div className="grid gap-1">
        <h2 id="pickups" className="flex items-center gap-2 text-xl font-semibold">
          <Store className="size-5 text-mango-600" aria-hidden="true" /> Pickups{' '}
          <span className="text-base font-normal text-ink-500">
            · {pickup.hours ? `${pickup.booked} of ${pickup.capacity} places · ${hoursText(pickup.hours)}` : `${pickup.orders.length} booked`}
          </span>
        </h2>
        {!pickup.hours && <p className="text-sm font-semibold">Pickup is turned off: these orders were booked before it was.</p>}
        {pickup.closed && <p className="text-sm font-semibold">No pickup on {formatDay(date)}: {pickup.closed}</p>}
      </div>
      {pickup.orders.length === 0 ? (
        <p className="text-sm text-ink-500">Nobody is collecting on {formatDay(date)}.</p>
      ) : (
        <ul className="divide-y divide-mango-50">
          {pickup.orders.map((order) => (
            <li key={order.number} className="grid gap-0.5 py-3">
              <p className="flex flex-wrap items-center gap-2">
                <Link to={`/admin/orders?order=${order.number}`} className="font-semibold text-mango-700 underline">
                  {order.number}
                </Link>
                <OrderStatusBadge status={order.status} fulfilment="pickup" />
                <span className="rounded-full bg-mango-50 px-2 py-0.5 font-mono text-sm font-semibold tracking-widest">{order.pickupCode}</span>
              </p>
              <p className="text-sm">
                {order.address.name} · {order.address.phone} · {order.boxes} {order.boxes === 1 ? 'box' : 'boxes'}
              </p>
              {order.status === 'pending_payment' && <p className="text-sm text-mango-700">Not paid yet: do not hand over until it is.</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Every paid order's packing slip, one per printed page; shown only when printing. */
function PackingSlips({ orders, dispatchDate }: { orders: Array<DispatchOrder | PickupListOrder>; dispatchDate: string }) {
  if (!orders.length) return null;
  return (
    <div data-print className="hidden print:block" aria-hidden="true">
      {orders.map((order) => (
        <article key={order.number} className="grid gap-3 text-sm break-after-page" data-testid="dispatch-slip">
          <h2 className="text-2xl font-semibold">Packing slip · {order.number}</h2>
          <PackingSlipBody order={'pickupCode' in order ? { ...order, dispatchDate: null } : { ...order, dispatchDate }} />
        </article>
      ))}
    </div>
  );
}
