import { Link } from 'react-router';
import { formatDateTime } from '../../../../contracts/dates';
import { useQuery } from '../../../lib/query';
import { fetchStopState, stopStateKey } from '../subscriptions/subscriptions-api';

/** While staff have stopped all season boxes no box's order is made: the dashboard says so until they are back on. */
export function DashboardSeasonBoxes() {
  const query = useQuery({ queryKey: stopStateKey, queryFn: ({ signal }) => fetchStopState(signal) });
  if (!query.data?.stopped) return null;
  return (
    <section aria-labelledby="season-boxes-stopped" className="grid gap-2 rounded-2xl border-2 border-danger-600 bg-white p-5 sm:flex sm:items-center sm:justify-between sm:gap-4 sm:p-6">
      <div className="grid gap-0.5">
        <h2 id="season-boxes-stopped" className="text-2xl font-semibold text-danger-600">
          Season boxes are stopped
        </h2>
        <p className="text-sm text-ink-500">
          {query.data.since ? `Since ${formatDateTime(query.data.since)}. ` : ''}No season box order is made until they are turned back on.
        </p>
      </div>
      <Link to="/admin/subscriptions" className="font-semibold text-mango-700 hover:underline">
        Go to season boxes
      </Link>
    </section>
  );
}
