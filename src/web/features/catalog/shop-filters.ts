import { type Product, shopSortOptions as sortOptions } from '../../../contracts/product';

export { sortOptions };

export type SortOption = (typeof sortOptions)[number]['value'];

export function parseSort(value: string | null): SortOption {
  return sortOptions.some((o) => o.value === value) ? (value as SortOption) : 'featured';
}

/** The shop's category filter and sort, applied to the cached product list. */
export function filterAndSort(products: Product[], category: string | null, sort: SortOption): Product[] {
  const shown = category ? products.filter((p) => p.category === category) : [...products];
  const byName = (a: Product, b: Product) => a.name.localeCompare(b.name, 'en-NZ');
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

export function categoriesOf(products: Product[]): string[] {
  return [...new Set(products.map((p) => p.category))].sort((a, b) => a.localeCompare(b, 'en-NZ'));
}
