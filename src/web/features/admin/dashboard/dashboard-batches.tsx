import { useQuery } from '../../../lib/query';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/format';
import { expiringBatchesKey, fetchExpiringBatches } from '../inventory/batch-panel';
import { boxes } from '../inventory/pre-order-forms';

const daysLeft = (days: number) => (days < 0 ? `${-days} ${days === -1 ? 'day' : 'days'} past` : days === 0 ? 'today' : `in ${days} ${days === 1 ? 'day' : 'days'}`);

/** Batches near their best-before, soonest first: sell, donate or write them off before they spoil. */
export function DashboardBatches({ warningDays }: { warningDays: number | undefined }) {
  const query = useQuery({ queryKey: expiringBatchesKey, queryFn: ({ signal }) => fetchExpiringBatches(signal) });
  if (query.isPending) return <Spinner compact />;
  if (query.isError) return <p role="alert" className="text-danger-600">The batches could not be loaded.</p>;
  const within = warningDays === undefined ? 'soon' : `within ${warningDays} ${warningDays === 1 ? 'day' : 'days'} (Settings)`;
  if (!query.data.length) return <p className="text-ink-500">No batch with boxes left reaches its best-before {within}.</p>;
  return (
    <div className="grid gap-2">
      <p className="text-sm text-ink-500">Batches with boxes left whose best-before is {within}. Sell them first; boxes that will not sell can be written off on Inventory → Batches.</p>
      <ul className="divide-y divide-mango-50">
        {query.data.map((batch) => (
          <li key={batch.id} className="grid grid-cols-[1fr_auto] gap-x-4 py-2 text-sm">
            <span>
              <span className="font-semibold">{batch.productName}</span> · batch {batch.id}
              {batch.grower ? ` · ${batch.grower}` : ''}
            </span>
            <span className="text-right tabular-nums">{boxes(batch.boxesLeft)}</span>
            <span className={batch.daysLeft <= 0 ? 'font-semibold text-danger-600' : 'text-ink-500'}>
              Best before {formatDate(batch.bestBefore!)} ({daysLeft(batch.daysLeft)})
            </span>
          </li>
        ))}
      </ul>
      <Link to="/admin/inventory" className="text-sm font-semibold text-mango-700 hover:underline">
        Inventory
      </Link>
    </div>
  );
}
