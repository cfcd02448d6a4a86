import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's filters, search and page kept in the address, so a filtered list can be shared and Back
 * works. A new filter starts again at page 1; turning a page or opening a detail (`opensDetail`,
 * such as ?order=) does not.
 */
export function useUrlFilters(opensDetail?: string) {
  const [params, setParams] = useSearchParams();
  const update = (next: Record<string, string | number | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined || value === '') merged.delete(key);
      else merged.set(key, String(value));
    }
    if (Object.keys(next).some((key) => key !== 'page' && key !== opensDetail)) merged.delete('page');
    setParams(merged);
  };
  const page = Math.max(1, Number(params.get('page')) || 1);
  return { params, page, update };
}

/**
 * A page past the end (its last row was just deleted, or an old link) moves to the last page
 * that has rows, instead of showing an empty list with no way back.
 */
export function useLastPageWhenPastEnd(data: { total: number; page: number; pageSize: number } | undefined, page: number, update: (next: { page: number }) => void) {
  const last = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  // Only once the server has answered for the page in the address, and never again once moved.
  const pastEnd = data !== undefined && data.page === page && data.total > 0 && page > last;
  useEffect(() => {
    if (pastEnd) update({ page: last });
  }, [pastEnd, last, update]);
}
