import { keepPreviousData, useQuery } from '../../../lib/query';
import { claimOutcomeLabels, claimReasonLabels, claimStatuses, claimStatusLabels } from '../../../../contracts/claims';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../../contracts/dates';
import { ClaimStatusBadge } from '../../claims/claim-status-badge';
import { FilterPills } from '../shared/filter-pills';
import { useUrlFilters } from '../shared/use-url-filters';
import { AdminClaimDetail } from './claim-detail';
import { type ClaimFilter, fetchStaffClaims, staffClaimsKey } from './claims-admin-api';

const filters: ClaimFilter[] = ['open', ...claimStatuses, 'all'];
const filterLabels: Record<ClaimFilter, string> = { open: 'Open', all: 'All', ...claimStatusLabels };

/** The freshness claims queue: open claims first come, first served; decided ones newest first. */
export function AdminClaims() {
  const { params, update } = useUrlFilters('claim');
  const opened = Number(params.get('claim'));
  const asked = params.get('status') as ClaimFilter | null;
  const status: ClaimFilter = asked && filters.includes(asked) ? asked : 'open';
  const query = useQuery({ queryKey: staffClaimsKey(status), queryFn: ({ signal }) => fetchStaffClaims(status, signal), placeholderData: keepPreviousData, retry: false });

  if (Number.isInteger(opened) && opened > 0) return <AdminClaimDetail id={opened} onBack={() => update({ claim: '' })} />;

  const counts = query.data?.counts;
  const countOf = (filter: ClaimFilter) =>
    !counts ? null : filter === 'open' ? counts.new + counts.in_review : filter === 'all' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[filter];
  return (
    <section className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h1 className="text-4xl font-semibold">Claims</h1>
        <p className="text-ink-500">Problems shoppers report with delivered mangoes. Each decision e-mails the shopper and shows on the order.</p>
      </div>
      <FilterPills label="Claim status" options={filters} labels={filterLabels} chosen={status} countOf={countOf} onChoose={(filter) => update({ status: filter === 'open' ? '' : filter })} />
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p className="rounded-2xl bg-white p-6 text-danger-600" role="alert">
          {errorMessage(query.error, 'The claims could not be loaded. Please try again.')}
        </p>
      ) : query.data.claims.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">{status === 'open' ? 'No claims are waiting. Every shopper has an answer.' : `No ${filterLabels[status].toLowerCase()} claims.`}</p>
      ) : (
        <ul className="grid gap-2">
          {query.data.claims.map((claim) => (
            <li key={claim.id}>
              <button
                type="button"
                onClick={() => update({ claim: claim.id })}
                className="grid w-full gap-1 rounded-2xl bg-white p-4 text-left hover:ring-2 hover:ring-mango-500/50 sm:grid-cols-[6rem_1fr_auto] sm:items-center sm:gap-4">
                <span className="font-semibold">Claim #{claim.id}</span>
                <span className="grid">
                  <span>
                    {claim.orderNumber} · {claim.customer}
                  </span>
                  <span className="text-sm text-ink-500">
                    {claimReasonLabels[claim.reason]} · {claim.boxes} {claim.boxes === 1 ? 'box' : 'boxes'} · wants a {claimOutcomeLabels[claim.outcome].toLowerCase()} · {claim.photoCount}{' '}
                    {claim.photoCount === 1 ? 'photo' : 'photos'} · {formatDateTime(claim.createdAt)}
                  </span>
                </span>
                <ClaimStatusBadge status={claim.status} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
