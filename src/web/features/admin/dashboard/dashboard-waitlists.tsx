import { useQuery } from '../../../lib/query';
import { Download } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import { fetchWaitlistCounts, waitlistCountsKey, waitlistCsvPath } from '../shared/admin-api';

/** Demand before the season: "Notify me" sign-ups per product, with each list as a CSV. */
export function DashboardWaitlists() {
  const query = useQuery({ queryKey: waitlistCountsKey, queryFn: ({ signal }) => fetchWaitlistCounts(signal) });
  if (query.isPending) return <Spinner compact />;
  if (query.isError) return <p role="alert" className="text-danger-600">The waitlists could not be loaded.</p>;
  if (!query.data.length) return <p className="text-ink-500">Nobody has asked to be notified yet. Shoppers can when a product is sold out or its pre-orders are full.</p>;
  return (
    <ul className="grid gap-2 text-sm">
      {query.data.map((row) => (
        <li key={row.productId} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-lg bg-cream-50 px-3 py-2">
          <span className="font-medium">{row.productName}</span>
          <span className="flex items-center gap-3">
            <span className="tabular-nums">
              <span className="font-semibold">{row.waiting} waiting</span>
              <span className="text-ink-500">
                {row.unconfirmed > 0 && ` · ${row.unconfirmed} to confirm`}
                {row.notified > 0 && ` · ${row.notified} e-mailed`}
              </span>
            </span>
            {row.waiting + row.notified > 0 && (
              <a href={waitlistCsvPath(row.productId)} download className="inline-flex items-center gap-1 font-semibold text-mango-700 hover:underline" aria-label={`Download the ${row.productName} waitlist as CSV`}>
                <Download className="size-4" aria-hidden="true" /> CSV
              </a>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
