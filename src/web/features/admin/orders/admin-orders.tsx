import { keepPreviousData, useQuery } from '../../../lib/query';
import { Download } from 'lucide-react';
import { Link } from 'react-router';
import { type OrderStatus, orderStatuses, orderStatusLabels } from '../../../../contracts/order';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatPrice } from '../../../lib/format';
import { OrderStatusBadge } from '../../orders/order-status-badge';
import { fetchStaffOrders, filterQuery, type OrderFilters, staffOrdersKey } from '../shared/admin-api';
import { Pager } from '../shared/pager';
import { SearchBox } from '../shared/search-box';
import { useLastPageWhenPastEnd, useUrlFilters } from '../shared/use-url-filters';
import { GiftBadge } from '../shared/gift-badge';
import { AdminOrderDetail } from './admin-order-detail';

const pageSize = 25;

function filtersOf(params: URLSearchParams, page: number): OrderFilters {
  const status = params.get('status');
  return {
    status: (orderStatuses as readonly string[]).includes(status ?? '') ? (status as OrderStatus) : undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
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

      <div className="grid gap-3 rounded-2xl bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_10rem_10rem_12rem]">
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
          <div className="overflow-x-auto rounded-2xl bg-white p-4">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Orders, newest first</caption>
              <thead>
                <tr className="border-b border-ink-500/30">
                  <th scope="col" className="py-2 font-semibold">Order</th>
                  <th scope="col" className="py-2 font-semibold">Placed</th>
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
                      <Link to={`?${new URLSearchParams({ ...Object.fromEntries(params), order: order.number })}`} className="font-semibold text-mango-700 hover:underline">
                        {order.number}
                      </Link>
                      {order.gift && (
                        <span className="ml-2">
                          <GiftBadge />
                        </span>
                      )}
                      {order.fulfilment === 'pickup' && <span className="ml-2 rounded-full bg-ink-900 px-2 py-0.5 text-xs font-semibold text-white">Pickup</span>}
                    </td>
                    <td className="py-2">{formatDate(order.placedAt)}</td>
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
        )
      )}
    </section>
  );
}
