import { useQuery } from '../../../lib/query';
import { useState } from 'react';
import { nzToday } from '../../../../contracts/dates';
import { type GstPeriod, gstPeriodLabels, gstPeriods, type GstReturnView, lastMonth } from '../../../../contracts/gst-return';
import { Spinner } from '../../../components/ui/spinner';
import { apiRequest } from '../../../lib/api-client';
import { formatDate, formatPrice } from '../../../lib/format';
import { ReportSection } from './report-section';

const monthName = new Intl.DateTimeFormat('en-NZ', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** This month (so far) and the 24 before it, newest first, as YYYY-MM with its name. */
function recentMonths(): Array<{ value: string; label: string }> {
  const [year, month] = nzToday().split('-').map(Number) as [number, number];
  return Array.from({ length: 25 }, (_, back) => {
    const at = new Date(Date.UTC(year, month - 1 - back, 1));
    return { value: at.toISOString().slice(0, 7), label: `${monthName.format(at)}${back === 0 ? ' (so far)' : ''}` };
  });
}

function Box({ box, label, value, strong = false }: { box: string; label: string; value: number; strong?: boolean }) {
  return (
    <tr className="border-b border-mango-50">
      <th scope="row" className="w-16 py-2 pr-3 align-top font-medium text-ink-500">
        Box {box}
      </th>
      <td className={`py-2 pr-3 ${strong ? 'font-semibold' : ''}`}>{label}</td>
      <td className={`whitespace-nowrap py-2 text-right tabular-nums ${strong ? 'font-semibold' : ''}`}>{formatPrice(value)}</td>
    </tr>
  );
}

const cents = (dollars: number) => Math.round(dollars * 100);

function GstFigures({ data }: { data: GstReturnView }) {
  const rounding = cents(data.roundingDifference);
  const refundRounding = cents(data.refundsRoundingDifference);
  return (
    <div className="grid gap-3">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            GST return, sales side, {formatDate(data.from)} to {formatDate(data.to)}
          </caption>
          <tbody>
            <Box box="5" label="Total sales and income, GST included" value={data.totalSales} />
            <Box box="6" label="Zero-rated supplies" value={data.zeroRated} />
            <Box box="7" label="Box 5 less box 6" value={data.taxableSales} />
            <Box box="8" label="GST on sales: box 7 × 3 ÷ 23" value={data.gstOnSales} />
            <Box box="9" label="Adjustments from your calculation sheet (none from sales)" value={data.adjustments} />
            <Box box="10" label="Total GST collected on sales and income" value={data.totalGstCollected} strong />
          </tbody>
        </table>
      </div>
      <p className="text-sm text-ink-500">
        {data.orders} paid {data.orders === 1 ? 'order' : 'orders'}.{' '}
        {rounding === 0
          ? `Their GST parts add up to ${formatPrice(data.ordersGst)}, the same as box 8.`
          : `Their GST parts, each rounded to the cent on its own, add up to ${formatPrice(data.ordersGst)}: box 8 is ${formatPrice(Math.abs(data.roundingDifference))} ${rounding > 0 ? 'more' : 'less'}, from that rounding.`}{' '}
        Zero-rated supplies are exports: the shop delivers in New Zealand only.
      </p>
      <div className="rounded-xl bg-mango-50 px-4 py-3 text-sm">
        {data.refunds === 0 ? (
          <p>No refunds were given in this period: nothing to add to box 13 from the shop.</p>
        ) : (
          <>
            <p className="font-medium">
              Refunds: {data.refunds} given, {formatPrice(data.refundsTotal)} GST included.
            </p>
            <p className="text-ink-700">
              Their GST, {formatPrice(data.refundsGst)} (3 ÷ 23 of the refunds), is a credit adjustment: add it to box 13 with any others from your calculation sheet.
              {refundRounding !== 0 && ` Each refund's GST part, rounded on its own, adds up to ${formatPrice(data.refundsGstParts)}.`}
            </p>
          </>
        )}
      </div>
      <p className="text-sm text-ink-500">This is the sales side only: purchases and expenses (boxes 11 to 15) come from your own records.</p>
    </div>
  );
}

/** Spec for the books: the GST return's sales side for a period Inland Revenue allows, and the Xero export of the report's range. */
export function ReportBooks({ range }: { range: { from: string; to: string } }) {
  const months = recentMonths();
  const [period, setPeriod] = useState<GstPeriod>('two-monthly');
  // A return is filed for a period that has ended: last month, unless staff choose this month so far.
  const [ending, setEnding] = useState(lastMonth());
  const query = `period=${period}&ending=${ending}`;
  const gst = useQuery({
    queryKey: ['admin', 'gst-return', period, ending],
    queryFn: ({ signal }) => apiRequest<GstReturnView>(`/api/admin/reports/gst-return?${query}`, { signal }),
  });
  const xeroQuery = new URLSearchParams(range).toString();
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ReportSection title="GST return" csvUrl={`/api/admin/reports/gst-return.csv?${query}`}>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="grid gap-1.5 text-sm font-medium">
            Period
            <select className="rounded-lg border border-ink-500/30 bg-white px-3 py-2 font-normal" value={period} onChange={(event) => setPeriod(event.target.value as GstPeriod)}>
              {gstPeriods.map((one) => (
                <option key={one} value={one}>
                  {gstPeriodLabels[one]}
                </option>
              ))}
            </select>
          </label>
          <label className="grid gap-1.5 text-sm font-medium">
            Ending with
            <select className="rounded-lg border border-ink-500/30 bg-white px-3 py-2 font-normal" value={ending} onChange={(event) => setEnding(event.target.value)}>
              {months.map((month) => (
                <option key={month.value} value={month.value}>
                  {month.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {gst.isPending ? (
          <Spinner compact />
        ) : gst.isError ? (
          <p role="alert" className="text-danger-600">
            The GST return could not be worked out. Try again.
          </p>
        ) : (
          <>
            <p className="text-sm text-ink-500">
              {formatDate(gst.data.from)} to {formatDate(gst.data.to)}: orders paid and refunds given on those New Zealand days.
            </p>
            <GstFigures data={gst.data} />
          </>
        )}
      </ReportSection>
      <ReportSection title="Sales invoices for Xero" csvUrl={`/api/admin/exports/xero-invoices.csv?${xeroQuery}`}>
        <p className="text-sm">
          Orders paid from {formatDate(range.from)} to {formatDate(range.to)} (the range above) as sales invoices, one line per box type with delivery, rural surcharge and
          promo discount as lines of their own; refunds as credit notes. Replacements for freshness claims cost nothing and are left out.
        </p>
        <ol className="list-decimal space-y-1 pl-5 text-sm text-ink-700">
          <li>Download the CSV.</li>
          <li>In Xero, open Sales, Invoices, then Import, and choose the file.</li>
          <li>Choose that the amounts are tax inclusive.</li>
        </ol>
        <p className="text-sm text-ink-500">
          Lines use Xero&apos;s tax rate &ldquo;15% GST on Income&rdquo; and the sales account set in Settings. Xero works out GST line by line; where that differs by a cent
          from the order&apos;s GST, a pair of &ldquo;GST rounding&rdquo; lines adding up to $0.00 keeps the invoice&apos;s GST the same as the customer&apos;s receipt.
        </p>
      </ReportSection>
    </div>
  );
}
