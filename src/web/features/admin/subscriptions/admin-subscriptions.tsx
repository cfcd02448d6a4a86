import { subscriptionStatuses } from '../../../../contracts/subscriptions';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { keepPreviousData, useQuery } from '../../../lib/query';
import { adminSectionTitles } from '../shared/admin-layout';
import { FilterPills } from '../shared/filter-pills';
import { Pager } from '../shared/pager';
import { useLastPageWhenPastEnd, useUrlFilters } from '../shared/use-url-filters';
import { staffStatusLabels } from './season-box-words';
import { StartRunForm } from './start-run-form';
import { StopAllControl } from './stop-all-control';
import { SubscriptionDetailView } from './subscription-detail';
import { SubscriptionForecastPanel } from './subscription-forecast';
import { SubscriptionTable } from './subscription-table';
import { fetchStaffSubscriptions, type SubscriptionFilter, staffSubscriptionsKey } from './subscriptions-api';

const filters: readonly SubscriptionFilter[] = ['all', ...subscriptionStatuses];
/** Pills always offered; another status (a card not saved yet) gets one only while some hold it. */
const alwaysOffered: readonly SubscriptionFilter[] = ['all', 'active', 'paused', 'cancelled', 'ended'];
const filterLabels: Record<SubscriptionFilter, string> = { all: 'All', ...staffStatusLabels };
const emptyText: Record<SubscriptionFilter, string> = {
  all: 'Nobody has a season box yet.',
  awaiting_card: 'No season box is waiting for a card.',
  active: 'No season boxes are active.',
  paused: 'No season boxes are paused.',
  cancelled: 'No season boxes are cancelled.',
  ended: 'No season boxes have come to their season’s end.',
};

/**
 * Staff's season boxes (docs/season-box.md): the brake on every run, the forecast the fruit is
 * ordered by, a run started early, and every subscription with its boxes to come and its history.
 */
export function AdminSubscriptions() {
  const { params, page, update } = useUrlFilters('subscription');
  const opened = params.get('subscription');
  const asked = params.get('status') as SubscriptionFilter | null;
  const filter: SubscriptionFilter = asked && filters.includes(asked) ? asked : 'all';
  const query = useQuery({
    queryKey: staffSubscriptionsKey(filter, page),
    queryFn: ({ signal }) => fetchStaffSubscriptions(filter, page, signal),
    placeholderData: keepPreviousData,
    retry: false,
    enabled: !opened,
  });
  useLastPageWhenPastEnd(query.data, page, update);

  if (opened) return <SubscriptionDetailView id={Number(opened)} onBack={() => update({ subscription: '' })} />;

  const counts = query.data?.counts;
  const countOf = (option: SubscriptionFilter) => (!counts ? null : option === 'all' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[option]);
  const offered = filters.filter((option) => alwaysOffered.includes(option) || option === filter || (option !== 'all' && (counts?.[option] ?? 0) > 0));
  return (
    <section className="grid grid-cols-1 gap-6">
      <div className="grid gap-1">
        <h1 className="text-4xl font-semibold">{adminSectionTitles.subscriptions}</h1>
        <p className="text-ink-500">Regulars' boxes every week or fortnight. Each box's order is made once, at its cut-off; shoppers skip or change a box until then.</p>
      </div>
      <div className="grid items-start gap-6 xl:grid-cols-2">
        <StopAllControl />
        <StartRunForm />
      </div>
      <SubscriptionForecastPanel />
      <section aria-labelledby="season-box-list" className="grid gap-4 rounded-2xl bg-white p-5 sm:p-6">
        <h2 id="season-box-list" className="text-2xl font-semibold">
          Every season box
        </h2>
        <FilterPills label="Season box status" options={offered} labels={filterLabels} chosen={filter} countOf={countOf} onChoose={(option) => update({ status: option === 'all' ? '' : option })} />
        {query.isPending ? (
          <Spinner compact />
        ) : query.isError ? (
          <p role="alert" className="text-danger-600">
            {errorMessage(query.error, 'The season boxes could not be loaded. Please try again.')}
          </p>
        ) : query.data.subscriptions.length === 0 ? (
          <p className="text-ink-500">{emptyText[filter]}</p>
        ) : (
          <div>
            <SubscriptionTable subscriptions={query.data.subscriptions} detailHref={(id) => `?${new URLSearchParams({ ...Object.fromEntries(params), subscription: String(id) })}`} />
            <Pager total={query.data.total} page={query.data.page} pageSize={query.data.pageSize} noun={['season box', 'season boxes']} onPage={(next) => update({ page: next })} />
          </div>
        )}
      </section>
    </section>
  );
}
