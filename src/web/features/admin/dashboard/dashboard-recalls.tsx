import { Link } from 'react-router';
import { formatDateTime } from '../../../../contracts/dates';
import { useQuery } from '../../../lib/query';
import { recallCounts } from '../inventory/admin-recalls';
import { fetchRecalls, recallsKey } from '../inventory/recalls-api';

/** Each batch recall staff have not closed yet, at the top of the dashboard, with what is still on hold. */
export function DashboardRecalls() {
  const query = useQuery({ queryKey: recallsKey, queryFn: ({ signal }) => fetchRecalls(signal) });
  const open = query.data?.recalls.filter((recall) => recall.closedAt === null) ?? [];
  if (!open.length) return null;
  return (
    <section aria-label="Open recalls" className="grid gap-3 rounded-2xl border-2 border-danger-600 bg-white p-5 sm:p-6">
      <h2 className="text-2xl font-semibold text-danger-600">{open.length === 1 ? 'A batch is recalled' : `${open.length} batches are recalled`}</h2>
      <ul className="grid gap-3">
        {open.map((recall) => (
          <li key={recall.id} className="grid gap-1 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-4">
            <div className="grid gap-0.5">
              <p className="font-semibold">
                {recall.productName}: {recall.batchLabel}
              </p>
              <p>{recall.reason}</p>
              <p className="text-ink-500">
                Recalled {formatDateTime(recall.recalledAt)} · {recallCounts(recall)}
                {recall.stillHeld > 0 && <span className="font-semibold text-danger-600"> · {recall.stillHeld} still on hold</span>}
              </p>
            </div>
            <Link to={`/admin/recalls?batch=${recall.batchId}`} className="font-semibold text-mango-700 hover:underline">
              See the orders
            </Link>
          </li>
        ))}
      </ul>
      <p className="text-sm text-ink-500">It stays here until you close the recall on its page.</p>
    </section>
  );
}
