import { keepPreviousData, useQuery } from '../../../lib/query';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { adminSectionTitles } from '../shared/admin-layout';
import { Pager } from '../shared/pager';
import { SearchBox } from '../shared/search-box';
import { useLastPageWhenPastEnd, useUrlFilters } from '../shared/use-url-filters';
import { CustomerDetailView } from './customer-detail';
import { CustomerTable } from './customer-table';
import { type CustomerFilters, customersKey, fetchCustomers } from './customers-api';

const pageSize = 25;

function filtersOf(params: URLSearchParams, page: number): CustomerFilters {
  return { q: params.get('q') ?? undefined, page, pageSize };
}

/** Issue 5: customers searched and paged on the server, with their order count and lifetime spend. */
export function AdminCustomers() {
  const { params, page, update } = useUrlFilters('customer');
  const opened = params.get('customer');
  const filters = filtersOf(params, page);
  const query = useQuery({
    queryKey: customersKey(filters),
    queryFn: ({ signal }) => fetchCustomers(filters, signal),
    placeholderData: keepPreviousData,
    retry: false,
    enabled: !opened,
  });
  useLastPageWhenPastEnd(query.data, page, update);

  if (opened) return <CustomerDetailView id={Number(opened)} onBack={() => update({ customer: '' })} />;

  const data = query.data;
  return (
    <section className="grid grid-cols-1 gap-4">
      <h1 className="text-4xl font-semibold">{adminSectionTitles.customers}</h1>
      <SearchBox label="Search name, username, e-mail or phone" initial={filters.q ?? ''} onSearch={(q) => update({ q })} className="rounded-2xl bg-white p-4" />

      {query.isError ? (
        <p role="alert" className="text-danger-600">
          {errorMessage(query.error, 'The customers could not be loaded.')}
        </p>
      ) : !data ? (
        <Spinner compact />
      ) : data.customers.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">No customers match this search.</p>
      ) : (
        <div className="rounded-2xl bg-white p-4">
          <CustomerTable customers={data.customers} detailHref={(id) => `?${new URLSearchParams({ ...Object.fromEntries(params), customer: String(id) })}`} />
          <Pager total={data.total} page={data.page} pageSize={data.pageSize} noun={['customer', 'customers']} onPage={(next) => update({ page: next })} />
        </div>
      )}
    </section>
  );
}
