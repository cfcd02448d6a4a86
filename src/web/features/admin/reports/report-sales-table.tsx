import type { ReportGrouping, SalesPeriod } from '../../../../contracts/reports';
import { formatPrice } from '../../../lib/format';

const dayMonth = new Intl.DateTimeFormat('en-NZ', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const monthYear = new Intl.DateTimeFormat('en-NZ', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** How a period reads on the chart and in the table: "2 Mar", "Week of 2 Mar", "Mar 2026". */
export function periodLabel(start: string, grouping: ReportGrouping): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (grouping === 'month') return monthYear.format(date);
  return grouping === 'week' ? `Week of ${dayMonth.format(date)}` : dayMonth.format(date);
}

/** The chart's figures as a table: what a screen reader reads, and the exact numbers behind each bar. */
export function SalesTable({ periods, grouping }: { periods: SalesPeriod[]; grouping: ReportGrouping }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Revenue and orders per {grouping}</caption>
        <thead>
          <tr className="border-b border-ink-500/30">
            <th scope="col" className="py-2 font-semibold">Period</th>
            <th scope="col" className="py-2 text-right font-semibold">Orders</th>
            <th scope="col" className="py-2 text-right font-semibold">Revenue</th>
            <th scope="col" className="py-2 text-right font-semibold">GST</th>
          </tr>
        </thead>
        <tbody>
          {periods.map((period) => (
            <tr key={period.start} className="border-b border-mango-50">
              <th scope="row" className="py-1.5 font-medium">{periodLabel(period.start, grouping)}</th>
              <td className="py-1.5 text-right tabular-nums">
                {period.orders}
                {period.refunded > 0 && <span className="text-ink-500"> ({period.refunded} refunded)</span>}
              </td>
              <td className="py-1.5 text-right tabular-nums">{formatPrice(period.revenue)}</td>
              <td className="py-1.5 text-right tabular-nums">{formatPrice(period.gst)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
