import { Link } from 'react-router';
import { orderStatusLabels } from '../../../../contracts/order';
import type { DashboardView } from '../../../../contracts/reports';

/** How many orders are in each status, each opening the order list filtered to it. */
export function DashboardStatus({ counts }: { counts: DashboardView['ordersByStatus'] }) {
  return (
    <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4 xl:grid-cols-7">
      {counts.map(({ status, count }) => (
        <li key={status}>
          <Link to={`/admin/orders?status=${status}`} className="grid gap-0.5 rounded-xl bg-cream-50 p-3 ring-1 ring-mango-50 hover:bg-mango-50">
            <span className="text-2xl font-semibold tabular-nums">{count}</span>
            <span className="text-sm text-ink-500">{orderStatusLabels[status]}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
