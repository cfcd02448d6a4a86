import { Download } from 'lucide-react';
import { formatDay, formatDayMonth } from '../../../../contracts/dates';
import { weekdayOf } from '../../../../contracts/days';
import type { SubscriptionForecast } from '../../../../contracts/subscriptions';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { useQuery } from '../../../lib/query';
import { fetchForecast, forecastCsvPath, forecastKey } from './subscriptions-api';

const headingId = 'season-box-forecast';

/** Boxes per product per delivery date for the next eight weeks: what the importer is ordered by. */
export function SubscriptionForecastPanel() {
  const query = useQuery({ queryKey: forecastKey, queryFn: ({ signal }) => fetchForecast(signal), retry: false });
  return (
    <section aria-labelledby={headingId} className="grid gap-4 rounded-2xl bg-white p-5 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-2xl font-semibold">
          Forecast: boxes per delivery date
        </h2>
        <a href={forecastCsvPath} download className="inline-flex items-center gap-2 rounded-full border border-ink-900 bg-white px-4 py-2 text-sm font-semibold hover:bg-mango-50">
          <Download className="size-4" aria-hidden="true" /> Download CSV
        </a>
      </div>
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">
          {errorMessage(query.error, 'The forecast could not be loaded. Please try again.')}
        </p>
      ) : query.data.products.length === 0 ? (
        <p className="text-ink-500">No season boxes in the next eight weeks.</p>
      ) : (
        <ForecastTable forecast={query.data} />
      )}
    </section>
  );
}

/** A delivery date's column heading, kept narrow: its weekday over its day and month. */
function DateHeading({ date }: { date: string }) {
  return (
    <time dateTime={date} title={formatDay(date)} className="grid">
      <span>{weekdayOf(date)}</span>
      <span className="font-normal whitespace-nowrap">{formatDayMonth(date)}</span>
    </time>
  );
}

/**
 * A row per product, a column per delivery date, totals on the right and at the foot. Wider than a
 * phone, it scrolls inside its own box (which takes the keyboard's focus so it can be scrolled
 * without a mouse), with the product column kept in view.
 */
export function ForecastTable({ forecast }: { forecast: SubscriptionForecast }) {
  const dayTotal = (date: string) => forecast.products.reduce((sum, row) => sum + (row.boxes[date] ?? 0), 0);
  const grandTotal = forecast.products.reduce((sum, row) => sum + row.total, 0);
  const cell = 'px-3 py-2 text-right tabular-nums';
  const sticky = 'sticky left-0 bg-white px-3 py-2 text-left';
  return (
    <div role="region" aria-label={`Forecast from ${formatDay(forecast.from)} to ${formatDay(forecast.to)}, scrolls sideways`} tabIndex={0} className="overflow-x-auto rounded-lg ring-1 ring-ink-500/20">
      <table className="min-w-full text-sm">
        <caption className="sr-only">
          Season boxes per product and delivery date, {formatDay(forecast.from)} to {formatDay(forecast.to)}
        </caption>
        <thead>
          <tr className="border-b border-ink-500/30 align-bottom">
            <th scope="col" className={`${sticky} font-semibold`}>
              Product
            </th>
            {forecast.dates.map((date) => (
              <th key={date} scope="col" className={`${cell} font-semibold`}>
                <DateHeading date={date} />
              </th>
            ))}
            <th scope="col" className={`${cell} font-semibold`}>
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {forecast.products.map((row) => (
            <tr key={row.productId} className="border-b border-mango-50">
              <th scope="row" className={`${sticky} min-w-40 font-normal`}>
                <span className="block font-semibold">{row.productName}</span>
                <span className="text-ink-500">Product {row.productId}</span>
              </th>
              {forecast.dates.map((date) => (
                <td key={date} className={`${cell} ${row.boxes[date] ? '' : 'text-ink-500'}`}>
                  {row.boxes[date] ?? 0}
                </td>
              ))}
              <td className={`${cell} font-semibold`}>{row.total}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t border-ink-500/30 font-semibold">
            <th scope="row" className={sticky}>
              All products
            </th>
            {forecast.dates.map((date) => (
              <td key={date} className={cell}>
                {dayTotal(date)}
              </td>
            ))}
            <td className={cell}>{grandTotal}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
