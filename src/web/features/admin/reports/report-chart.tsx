import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReportGrouping, SalesPeriod } from '../../../../contracts/reports';
import { formatPrice } from '../../../lib/format';
import { periodLabel } from './report-sales-table';

const wholeDollars = new Intl.NumberFormat('en-NZ', { style: 'currency', currency: 'NZD', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 });

/**
 * Revenue per period as bars and orders as a line. Loaded on its own when the reports screen opens,
 * so the charting library never weighs on the rest of the admin area or the storefront.
 */
export default function SalesChart({ periods, grouping, summary }: { periods: SalesPeriod[]; grouping: ReportGrouping; summary: string }) {
  const reducedMotion = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  const data = periods.map((period) => ({ label: periodLabel(period.start, grouping), revenue: period.revenue, orders: period.orders }));
  return (
    // The table under the chart carries the same figures for screen readers; the chart is one image.
    <div role="img" aria-label={summary} className="h-72 w-full sm:h-80">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid stroke="var(--color-mango-50)" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: 'var(--color-ink-500)', fontSize: 12 }} tickLine={false} minTickGap={16} />
          <YAxis yAxisId="revenue" tickFormatter={(value: number) => wholeDollars.format(value)} tick={{ fill: 'var(--color-ink-500)', fontSize: 12 }} width={64} />
          <YAxis yAxisId="orders" orientation="right" allowDecimals={false} tick={{ fill: 'var(--color-ink-500)', fontSize: 12 }} width={32} />
          <Tooltip
            formatter={(value, name) => (name === 'Revenue (incl. GST)' ? formatPrice(Number(value)) : String(value))}
            contentStyle={{ borderRadius: 12, borderColor: 'var(--color-mango-500)' }}
          />
          {/* Series colours are too light for text: the legend's words stay ink. */}
          <Legend wrapperStyle={{ fontSize: 14 }} formatter={(value: string) => <span className="text-ink-900">{value}</span>} />
          <Bar yAxisId="revenue" dataKey="revenue" name="Revenue (incl. GST)" fill="var(--color-mango-500)" radius={[4, 4, 0, 0]} isAnimationActive={!reducedMotion} />
          <Line yAxisId="orders" dataKey="orders" name="Orders" type="linear" stroke="var(--color-leaf-700)" strokeWidth={2} dot={periods.length <= 14} isAnimationActive={!reducedMotion} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
