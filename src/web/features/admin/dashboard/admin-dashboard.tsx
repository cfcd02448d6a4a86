import { useQuery } from '../../../lib/query';
import { Link } from 'react-router';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatPrice } from '../../../lib/format';
import { OrderStatusBadge } from '../../orders/order-status-badge';
import { fetchStaffClaims, staffClaimsKey } from '../claims/claims-admin-api';
import { fetchStaffOrders, staffOrdersKey } from '../shared/admin-api';
import { useDashboard } from '../shared/reports-api';
import { DashboardAudit } from './dashboard-audit';
import { DashboardBatches } from './dashboard-batches';
import { DashboardRecalls } from './dashboard-recalls';
import { DashboardRefunds } from './dashboard-refunds';
import { DashboardRevenue } from './dashboard-revenue';
import { DashboardSeasonBoxes } from './dashboard-season-boxes';
import { DashboardSetup } from './dashboard-setup';
import { DashboardStatus } from './dashboard-status';
import { DashboardPreOrders, DashboardStock } from './dashboard-stock';
import { DashboardWaitlists } from './dashboard-waitlists';
import { adminSettingsKey, fetchSettings as fetchAdminSettings } from '../settings/admin-settings';

/** What needs doing today: money in, orders waiting for payment or packing, stock to watch, and who changed what. */
export function AdminDashboard() {
  const dashboard = useDashboard();
  const settings = useQuery({ queryKey: adminSettingsKey, queryFn: ({ signal }) => fetchAdminSettings(signal) });
  const waitingPayment = useQuery({ queryKey: staffOrdersKey({ status: 'pending_payment', pageSize: 1 }), queryFn: ({ signal }) => fetchStaffOrders({ status: 'pending_payment', pageSize: 1 }, signal) });
  const toPack = useQuery({ queryKey: staffOrdersKey({ status: 'paid', pageSize: 1 }), queryFn: ({ signal }) => fetchStaffOrders({ status: 'paid', pageSize: 1 }, signal) });
  const claims = useQuery({ queryKey: staffClaimsKey('open'), queryFn: ({ signal }) => fetchStaffClaims('open', signal) });
  const recent = useQuery({ queryKey: staffOrdersKey({ pageSize: 5 }), queryFn: ({ signal }) => fetchStaffOrders({ pageSize: 5 }, signal) });
  const count = (value: number | undefined) => (value === undefined ? '…' : String(value));
  const view = dashboard.data;
  const dashboardState = dashboard.isError ? (
    <p role="alert" className="text-danger-600">
      These figures could not be loaded.
    </p>
  ) : (
    <Spinner compact />
  );
  return (
    <section className="grid grid-cols-1 gap-6">
      <h1 className="text-4xl font-semibold">Dashboard</h1>
      <DashboardRecalls />
      <DashboardSeasonBoxes />
      <DashboardSetup />
      <DashboardRefunds />
      <DashboardRevenue revenue={view?.revenue} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Link to="/admin/orders?status=pending_payment" className="grid gap-1 rounded-2xl bg-white p-5 hover:shadow-md">
          <span className="text-sm text-ink-500">Waiting for payment</span>
          <span className="text-3xl font-semibold tabular-nums">{count(waitingPayment.data?.total)}</span>
        </Link>
        <Link to="/admin/orders?status=paid" className="grid gap-1 rounded-2xl bg-white p-5 hover:shadow-md">
          <span className="text-sm text-ink-500">Paid, waiting to be packed</span>
          <span className="text-3xl font-semibold tabular-nums">{count(toPack.data?.total)}</span>
        </Link>
        <Link to="/admin/claims" className="grid gap-1 rounded-2xl bg-white p-5 hover:shadow-md">
          <span className="text-sm text-ink-500">Freshness claims to decide</span>
          <span className="text-3xl font-semibold tabular-nums">{count(claims.data ? claims.data.counts.new + claims.data.counts.in_review : undefined)}</span>
        </Link>
      </div>
      <Panel title="Orders by status">{view ? <DashboardStatus counts={view.ordersByStatus} /> : dashboardState}</Panel>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Panel title="Stock to watch">{view ? <DashboardStock view={view} /> : dashboardState}</Panel>
        <Panel title="Pre-order demand">{view ? <DashboardPreOrders demand={view.preOrderDemand} /> : dashboardState}</Panel>
        <Panel title="Waitlists">
          <DashboardWaitlists />
        </Panel>
        <Panel title="Batches near their best-before">
          <DashboardBatches warningDays={settings.data?.bestBeforeWarningDays} />
        </Panel>
      </div>
      <Panel title="Recent orders">
        {recent.isPending ? (
          <Spinner compact />
        ) : !recent.data?.orders.length ? (
          <p className="text-ink-500">No orders yet.</p>
        ) : (
          <ul className="divide-y divide-mango-50">
            {recent.data.orders.map((order) => (
              <li key={order.number} className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 py-2 text-sm sm:grid-cols-[8rem_1fr_auto_6rem]">
                <Link to={`/admin/orders?order=${order.number}`} className="font-semibold text-mango-700 hover:underline">
                  {order.number}
                </Link>
                <span className="text-right text-ink-500 sm:text-left">
                  {order.customerName} · {formatDate(order.placedAt)}
                </span>
                <span>
                  <OrderStatusBadge status={order.status} />
                </span>
                <span className="text-right tabular-nums">{formatPrice(order.total)}</span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <Panel title="Recent changes">
        <DashboardAudit />
      </Panel>
    </section>
  );
}
