import { ChartNoAxesColumn } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { reportQuerySchema } from '../../../../contracts/reports';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { formatDate, formatPrice } from '../../../lib/format';
import { adminSectionTitles } from '../shared/admin-layout';
import { type ReportFilters, reportCsvUrl, useSalesReport } from '../shared/reports-api';
import { ReportBooks } from './report-books';
import { ReportClaimTables } from './report-claim-tables';
import { ReportRangeForm } from './report-range-form';
import { SalesTable } from './report-sales-table';
import { ReportEmpty, ReportSection } from './report-section';
import { ReportTables } from './report-tables';

// recharts is large: it loads only when this screen shows a chart.
const SalesChart = lazy(() => import('./report-chart'));

function filtersOf(params: URLSearchParams): ReportFilters {
  return { from: params.get('from') ?? undefined, to: params.get('to') ?? undefined, groupBy: params.get('groupBy') ?? undefined };
}

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="grid gap-1 rounded-2xl bg-white p-5">
      <span className="text-sm text-ink-500">{label}</span>
      <span className="text-3xl font-semibold tabular-nums">{value}</span>
      <span className="text-sm text-ink-500">{note}</span>
    </div>
  );
}

/** Issue 5: revenue and orders over a chosen range, top products, regions, promos, pre-orders and claims by batch and grower, each with a CSV. */
export function AdminReports() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const report = useSalesReport(filters);
  const serverErrors = report.error instanceof ApiError ? report.error.body?.fieldErrors : undefined;
  // The range as the server reads it, so the form shows the default 30 days before anything is chosen.
  const resolved = reportQuerySchema.safeParse(filters);
  const initial = resolved.success ? resolved.data : { from: filters.from ?? '', to: filters.to ?? '', groupBy: filters.groupBy ?? 'day' };
  const data = report.data;
  return (
    <section className="grid grid-cols-1 gap-4">
      <h1 className="text-4xl font-semibold">{adminSectionTitles['reports']}</h1>
      <p className="text-ink-500">
        Days are New Zealand days. Revenue is what customers paid, GST and shipping included, for orders that are paid or further along; refunded orders count as
        orders with no revenue. A week or month cut by the range counts only its days inside the range.
      </p>
      <ReportRangeForm key={`${initial.from}/${initial.to}/${initial.groupBy}`} initial={initial} serverErrors={serverErrors} onApply={(next) => setParams(next)} />

      {report.isPending ? (
        <Spinner compact />
      ) : report.isError ? (
        <p role="alert" className="rounded-2xl bg-white p-5 text-danger-600">
          {serverErrors ? 'Correct the range above to see the report.' : 'The report could not be loaded.'}
        </p>
      ) : (
        data && (
          <div className={`grid grid-cols-1 gap-4 transition-opacity ${report.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={report.isPlaceholderData}>
            <div className="grid gap-4 sm:grid-cols-3">
              <Figure label="Revenue (incl. GST)" value={formatPrice(data.totals.revenue)} note={`includes ${formatPrice(data.totals.gst)} GST`} />
              <Figure
                label="Orders"
                value={String(data.totals.orders)}
                note={`${formatDate(data.from)} to ${formatDate(data.to)}${data.totals.refunded ? ` · ${data.totals.refunded} refunded` : ''}`}
              />
              <Figure
                label="Delivery charged"
                value={formatPrice(data.delivery.shipping)}
                note={`includes ${formatPrice(data.delivery.ruralSurcharge)} rural surcharge on ${data.delivery.ruralOrders} ${data.delivery.ruralOrders === 1 ? 'order' : 'orders'}`}
              />
            </div>
            <ReportSection title="Revenue and orders" csvUrl={reportCsvUrl('sales', filters)}>
              {data.totals.orders === 0 ? (
                <ReportEmpty>
                  <ChartNoAxesColumn className="mr-2 inline size-5 align-text-bottom" aria-hidden="true" />
                  No paid orders between {formatDate(data.from)} and {formatDate(data.to)}. Choose a wider range to see sales.
                </ReportEmpty>
              ) : (
                <>
                  <Suspense fallback={<Spinner compact label="Loading the chart..." />}>
                    <SalesChart
                      periods={data.periods}
                      grouping={data.groupBy}
                      summary={`Revenue per ${data.groupBy}: ${formatPrice(data.totals.revenue)} from ${data.totals.orders} orders in all`}
                    />
                  </Suspense>
                  <details className="text-sm">
                    <summary className="cursor-pointer font-medium text-mango-700">Show the figures per {data.groupBy}</summary>
                    <div className="pt-3">
                      <SalesTable periods={data.periods} grouping={data.groupBy} />
                    </div>
                  </details>
                </>
              )}
            </ReportSection>
            <ReportTables report={data} filters={filters} />
            <ReportClaimTables report={data} filters={filters} />
            <h2 className="mt-4 text-2xl font-semibold">For the books</h2>
            <ReportBooks range={{ from: data.from, to: data.to }} />
          </div>
        )
      )}
    </section>
  );
}
