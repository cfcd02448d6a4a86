import { keepPreviousData, useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { useState } from 'react';
import { type PreOrderFilter, preOrderFilters } from '../../../../contracts/admin-orders';
import { formatDay } from '../../../../contracts/dates';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { Download } from 'lucide-react';
import { Link } from 'react-router';
import { type OrderStatus, orderStatuses, orderStatusLabels } from '../../../../contracts/order';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatPrice } from '../../../lib/format';
import { OrderStatusBadge } from '../../orders/order-status-badge';
import { fetchStaffOrders, filterQuery, type OrderFilters, postBulkStatus, staffOrdersKey } from '../shared/admin-api';
import { Pager } from '../shared/pager';
import { SearchBox } from '../shared/search-box';
import { useLastPageWhenPastEnd, useUrlFilters } from '../shared/use-url-filters';
import { GiftBadge } from '../shared/gift-badge';
import { AdminOrderDetail } from './admin-order-detail';

const pageSize = 25;

const preOrderLabels: Record<PreOrderFilter, string> = { yes: 'With pre-orders', waiting: 'Waiting for pre-order boxes', no: 'In-stock only' };

function filtersOf(params: URLSearchParams, page: number): OrderFilters {
  const status = params.get('status');
  const preOrder = params.get('preOrder');
  const fulfilment = params.get('fulfilment');
  return {
    status: (orderStatuses as readonly string[]).includes(status ?? '') ? (status as OrderStatus) : undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    day: params.get('day') ?? undefined,
    preOrder: (preOrderFilters as readonly string[]).includes(preOrder ?? '') ? (preOrder as PreOrderFilter) : undefined,
    fulfilment: fulfilment === 'delivery' || fulfilment === 'pickup' ? fulfilment : undefined,
    q: params.get('q') ?? undefined,
    page,
    pageSize,
  };
}

/** Issue 5: orders filtered by status and date, searched, paged on the server, exported as CSV. */
export function AdminOrders() {
  const { params, page, update } = useUrlFilters('order');
  const opened = params.get('order');
  const filters = filtersOf(params, page);
  const query = useQuery({
    queryKey: staffOrdersKey(filters),
    queryFn: ({ signal }) => fetchStaffOrders(filters, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  useLastPageWhenPastEnd(query.data, page, update);
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>([]);
  const [bulk, setBulk] = useState<'paid' | 'packed' | null>(null);
  const bulkStep = useMutation({
    mutationFn: (status: 'paid' | 'packed') => postBulkStatus(status, chosen),
    onSuccess({ results }, status) {
      setBulk(null);
      setChosen([]);
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
      const failed = results.filter((result) => !result.ok);
      const done = results.length - failed.length;
      toast({
        title: `${done} ${done === 1 ? 'order' : 'orders'} marked ${status}`,
        description: failed.length ? failed.map((result) => `${result.number}: ${'message' in result ? result.message : ''}`).join(' ') : undefined,
        variant: failed.length ? 'destructive' : undefined,
      });
    },
    onError(error) {
      setBulk(null);
      toast({ title: 'No order was changed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    },
  });

  if (opened) return <AdminOrderDetail number={opened.toUpperCase()} onBack={() => update({ order: '' })} />;

  const { page: _page, pageSize: _size, ...exportFilters } = filters;
  const data = query.data;
  const field = 'rounded-lg border border-ink-500/30 bg-white px-3 py-2.5 text-base outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40';
  return (
    <section className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-4xl font-semibold">Orders</h1>
        <a href={`/api/admin/orders.csv${filterQuery(exportFilters)}`} download className="inline-flex items-center gap-2 rounded-full border border-ink-900 bg-white px-5 py-2.5 text-sm font-semibold hover:bg-mango-50">
          <Download className="size-4" aria-hidden="true" /> Export CSV
        </a>
      </div>

      <div className="grid gap-3 rounded-2xl bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
        <SearchBox label="Search number, name or e-mail" initial={filters.q ?? ''} onSearch={(q) => update({ q })} />
        <label className="grid gap-1.5 text-sm font-medium">
          From
          <input type="date" className={field} value={filters.from ?? ''} onChange={(event) => update({ from: event.target.value })} />
        </label>
        <label className="grid gap-1.5 text-sm font-medium">
          To
          <input type="date" className={field} value={filters.to ?? ''} onChange={(event) => update({ to: event.target.value })} />
        </label>
        <label className="grid gap-1.5 text-sm font-medium">
          Status
          <select className={field} value={filters.status ?? ''} onChange={(event) => update({ status: event.target.value })}>
            <option value="">All statuses</option>
            {orderStatuses.map((status) => (
              <option key={status} value={status}>
                {orderStatusLabels[status]}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1.5 text-sm font-medium">
          Delivery or pickup day
          <input type="date" className={field} value={filters.day ?? ''} onChange={(event) => update({ day: event.target.value })} />
        </label>
        <label className="grid gap-1.5 text-sm font-medium">
          Pre-orders
          <select className={field} value={filters.preOrder ?? ''} onChange={(event) => update({ preOrder: event.target.value })}>
            <option value="">All orders</option>
            {preOrderFilters.map((one) => (
              <option key={one} value={one}>
                {preOrderLabels[one]}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1.5 text-sm font-medium">
          Sent by
          <select className={field} value={filters.fulfilment ?? ''} onChange={(event) => update({ fulfilment: event.target.value })}>
            <option value="">Courier or pickup</option>
            <option value="delivery">Courier</option>
            <option value="pickup">Pickup</option>
          </select>
        </label>
      </div>

      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">
          {errorMessage(query.error, 'The orders could not be loaded.')}
        </p>
      ) : data && data.orders.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">No orders match these filters.</p>
      ) : (
        data && (
          <div className="grid gap-3">
          {chosen.length > 0 && (
            <div role="group" aria-label="With the chosen orders" className="sticky top-2 z-10 flex flex-wrap items-center gap-3 rounded-2xl bg-ink-900 px-4 py-3 text-sm text-white shadow-lg">
              <span className="font-semibold">{chosen.length} chosen</span>
              <Button onClick={() => setBulk('paid')}>Mark paid</Button>
              <Button onClick={() => setBulk('packed')}>Mark packed</Button>
              <button type="button" className="underline" onClick={() => setChosen([])}>
                Clear choice
              </button>
            </div>
          )}
          <div className="overflow-x-auto rounded-2xl bg-white p-4">
            <table className="w-full min-w-[56rem] text-left text-sm">
              <caption className="sr-only">Orders, newest first</caption>
              <thead>
                <tr className="border-b border-ink-500/30">
                  <th scope="col" className="w-8 py-2">
                    <input
                      type="checkbox"
                      aria-label="Choose every order on this page"
                      className="size-4 accent-mango-600"
                      checked={data.orders.length > 0 && data.orders.every((order) => chosen.includes(order.number))}
                      onChange={(event) => setChosen(event.target.checked ? data.orders.map((order) => order.number) : [])}
                    />
                  </th>
                  <th scope="col" className="py-2 font-semibold">Order</th>
                  <th scope="col" className="py-2 font-semibold">Placed</th>
                  <th scope="col" className="py-2 font-semibold">Day</th>
                  <th scope="col" className="py-2 font-semibold">Customer</th>
                  <th scope="col" className="py-2 font-semibold">Status</th>
                  <th scope="col" className="py-2 text-right font-semibold">Boxes</th>
                  <th scope="col" className="py-2 text-right font-semibold">Total</th>
                </tr>
              </thead>
              <tbody>
                {data.orders.map((order) => (
                  <tr key={order.number} className="border-b border-mango-50">
                    <td className="py-2">
                      <input
                        type="checkbox"
                        aria-label={`Choose order ${order.number}`}
                        className="size-4 accent-mango-600"
                        checked={chosen.includes(order.number)}
                        onChange={(event) => setChosen((now) => (event.target.checked ? [...now, order.number] : now.filter((number) => number !== order.number)))}
                      />
                    </td>
                    <td className="py-2">
                      <Link to={`?${new URLSearchParams({ ...Object.fromEntries(params), order: order.number })}`} className="font-semibold text-mango-700 hover:underline">
                        {order.number}
                      </Link>
                      {order.gift && (
                        <span className="ml-2">
                          <GiftBadge />
                        </span>
                      )}
                      {order.fulfilment === 'pickup' && <span className="ml-2 rounded-full bg-ink-900 px-2 py-0.5 text-xs font-semibold text-white">Pickup</span>}
                      {order.preOrder && (
                        <span className="ml-2 rounded-full bg-mango-50 px-2 py-0.5 text-xs font-semibold text-mango-700">{order.waitingForStock ? 'Pre-order waiting' : 'Pre-order'}</span>
                      )}
                      {order.onHold && <span className="ml-2 rounded-full bg-danger-600 px-2 py-0.5 text-xs font-semibold text-white">On hold</span>}
                    </td>
                    <td className="py-2">{formatDate(order.placedAt)}</td>
                    <td className="py-2 whitespace-nowrap">{order.deliveryDate ? formatDay(order.deliveryDate) : <span className="text-ink-500">Not set</span>}</td>
                    <td className="py-2">
                      {order.customerName}
                      <span className="block text-ink-500">{order.customerEmail}</span>
                    </td>
                    <td className="py-2">
                      <OrderStatusBadge status={order.status} fulfilment={order.fulfilment} />
                    </td>
                    <td className="py-2 text-right tabular-nums">{order.itemCount}</td>
                    <td className="py-2 text-right tabular-nums">{formatPrice(order.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager total={data.total} page={data.page} pageSize={data.pageSize} noun={['order', 'orders']} onPage={(next) => update({ page: next })} />
          </div>
          </div>
        )
      )}
      <ConfirmDialog
        open={bulk !== null}
        title={`Mark ${chosen.length} ${chosen.length === 1 ? 'order' : 'orders'} ${bulk ?? ''}?`}
        description={
          bulk === 'paid'
            ? `Each customer is e-mailed that their payment arrived: ${chosen.join(', ')}. Orders that cannot be marked paid are left as they are and listed.`
            : `Their boxes are taken from the batches, first to expire first: ${chosen.join(', ')}. Orders that cannot be packed yet are left as they are and listed.`
        }
        confirmLabel={bulk === 'packed' ? 'Mark packed' : 'Mark paid'}
        cancelLabel="Not yet"
        busy={bulkStep.isPending}
        onConfirm={() => bulk && bulkStep.mutate(bulk)}
        onCancel={() => setBulk(null)}
      />
    </section>
  );
}
