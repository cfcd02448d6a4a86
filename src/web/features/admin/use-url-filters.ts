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
  return { params, page: Math.max(1, Number(params.get('page')) || 1), update };
}
