import type { DashboardView, RevenueFigures } from '../../../../contracts/reports';
import { formatPrice } from '../../../lib/format';

const windows: Array<[keyof DashboardView['revenue'], string]> = [
  ['today', 'Revenue today'],
  ['last7Days', 'Last 7 days'],
  ['last30Days', 'Last 30 days'],
];

function RevenueCard({ label, figures }: { label: string; figures: RevenueFigures | undefined }) {
  return (
    <div className="grid gap-1 rounded-2xl bg-white p-5">
      <span className="text-sm text-ink-500">{label}</span>
      <span className="text-3xl font-semibold tabular-nums">{figures ? formatPrice(figures.revenue) : '…'}</span>
      <span className="text-sm text-ink-500">
        {figures ? `incl. ${formatPrice(figures.gst)} GST · ${figures.orders} order${figures.orders === 1 ? '' : 's'}` : 'Loading...'}
      </span>
    </div>
  );
}

/** Money in (GST included, its part shown) for paid orders placed today, in the last 7 and 30 New Zealand days, net of refunds. */
export function DashboardRevenue({ revenue }: { revenue: DashboardView['revenue'] | undefined }) {
  return (
    <div className="grid gap-2">
      <div className="grid gap-4 sm:grid-cols-3">
        {windows.map(([key, label]) => (
          <RevenueCard key={key} label={label} figures={revenue?.[key]} />
        ))}
      </div>
      <p className="text-sm text-ink-500">Paid orders placed in each window, less what was refunded on them (owed refunds included).</p>
    </div>
  );
}
