import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { ApiError } from '../../lib/api-client';
import { adminSectionTitles } from './admin-layout';
import { CustomerDetailView } from './customer-detail';
import { CustomerTable } from './customer-table';
import { type CustomerFilters, customersKey, fetchCustomers } from './customers-api';
import { Pager } from './pager';

const pageSize = 25;

function filtersOf(params: URLSearchParams): CustomerFilters {
  return { q: params.get('q') ?? undefined, page: Math.max(1, Number(params.get('page')) || 1), pageSize };
}

/** Issue 5: customers searched and paged on the server, with their order count and lifetime spend. */
export function AdminCustomers() {
  const [params, setParams] = useSearchParams();
  const opened = params.get('customer');
  const filters = filtersOf(params);
  const [search, setSearch] = useState(filters.q ?? '');
  const query = useQuery({
    queryKey: customersKey(filters),
    queryFn: ({ signal }) => fetchCustomers(filters, signal),
    placeholderData: keepPreviousData,
    retry: false,
    enabled: !opened,
  });

  const update = (next: Partial<Record<'q' | 'page' | 'customer', string>>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    // A new search starts again at the first page.
    if ('q' in next) merged.delete('page');
    setParams(merged);
  };

  if (opened) return <CustomerDetailView id={Number(opened)} onBack={() => update({ customer: '' })} />;

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ q: search.trim() });
  };
  const data = query.data;
  return (
    <section className="grid grid-cols-1 gap-4">
      <h1 className="text-4xl font-semibold">{adminSectionTitles.customers}</h1>
      <form onSubmit={submitSearch} className="flex flex-wrap items-end gap-2 rounded-2xl bg-white p-4" role="search">
        <TextField label="Search name, username, e-mail or phone" className="min-w-0 flex-1 basis-56" value={search} maxLength={100} onChange={(event) => setSearch(event.target.value)} />
        <Button type="submit" variant="outline">
          Search
        </Button>
      </form>

      {query.isError ? (
        <p role="alert" className="text-danger-600">
          {query.error instanceof ApiError ? (query.error.body?.message ?? 'The customers could not be loaded.') : 'The customers could not be loaded.'}
        </p>
      ) : !data ? (
        <Spinner compact />
      ) : data.customers.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">No customers match this search.</p>
      ) : (
        <div className="rounded-2xl bg-white p-4">
          <CustomerTable customers={data.customers} detailHref={(id) => `?${new URLSearchParams({ ...Object.fromEntries(params), customer: String(id) })}`} />
          <Pager total={data.total} page={data.page} pageSize={data.pageSize} noun={['customer', 'customers']} onPage={(page) => update({ page: String(page) })} />
        </div>
      )}
    </section>
  );
}
