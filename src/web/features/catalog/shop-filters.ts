import { type Product, shopSortOptions as sortOptions } from '../../../contracts/product';

export { sortOptions };

/** A name as it sorts: without case or marks, so "ā" sorts with "a" and "kesar" with "Kesar". */
const sortKey = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
/** Between names equal but for case, lower case first, as a dictionary (and en-NZ's collator) has it. */
const caseTieKey = (name: string) => [...name].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/**
 * Alphabetical as a reader expects, without Intl's collator: building one costs a phone about
 * 70 ms of main thread the first time the shop is drawn (contracts/formatter.ts).
 */
export function alphabetical(a: string, b: string): number {
  const [keyA, keyB] = [sortKey(a), sortKey(b)];
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  const [tieA, tieB] = [caseTieKey(a), caseTieKey(b)];
  return tieA < tieB ? -1 : tieA > tieB ? 1 : 0;
}

export type SortOption = (typeof sortOptions)[number]['value'];

export function parseSort(value: string | null): SortOption {
  return sortOptions.some((o) => o.value === value) ? (value as SortOption) : 'featured';
}

/**
 * "Organic" is an attribute, not a category: its chip shows every product marked organic (the
 * same flag its badge reads), whatever its category, so the filter and the badge always agree.
 */
export const organicFilter = 'Organic';

const inFilter = (product: Product, category: string) => (category === organicFilter ? product.isOrganic : product.category === category);

/** The shop's category filter and sort, applied to the cached product list. */
export function filterAndSort(products: Product[], category: string | null, sort: SortOption): Product[] {
  const shown = category ? products.filter((p) => inFilter(p, category)) : [...products];
  const byName = (a: Product, b: Product) => alphabetical(a.name, b.name);
  switch (sort) {
    case 'price-asc':
      return shown.sort((a, b) => a.price - b.price || byName(a, b));
    case 'price-desc':
      return shown.sort((a, b) => b.price - a.price || byName(a, b));
    case 'rating':
      return shown.sort((a, b) => b.rating - a.rating || byName(a, b));
    case 'name':
      return shown.sort(byName);
    default:
      return shown;
  }
}

/** The shop's filter chips: each category, and Organic when any product is marked organic. */
export function categoriesOf(products: Product[]): string[] {
  const names = new Set(products.map((p) => p.category));
  if (products.some((p) => p.isOrganic)) names.add(organicFilter);
  return [...names].sort(alphabetical);
}
