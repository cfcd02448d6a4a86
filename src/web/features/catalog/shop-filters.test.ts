import { describe, expect, it } from 'vitest';
import type { Product } from '../../../contracts/product';
import { alphabetical, categoriesOf, filterAndSort, parseSort } from './shop-filters';

const product = (id: number, name: string, price: number, rating: number, category: string) => ({ id, name, price, rating, category }) as Product;
const list = [product(1, 'Kesar', 59.99, 4.8, 'Premium'), product(2, 'Totapuri', 34.99, 4.1, 'Classic'), product(3, 'Alphonso', 64.99, 4.9, 'Premium')];

describe('shop filters', () => {
  it('keeps one category', () => {
    expect(filterAndSort(list, 'Premium', 'featured').map((p) => p.id)).toEqual([1, 3]);
  });
  it.each([
    ['price-asc', [2, 1, 3]],
    ['price-desc', [3, 1, 2]],
    ['rating', [3, 1, 2]],
    ['name', [3, 1, 2]],
    ['featured', [1, 2, 3]],
  ] as const)('sorts by %s', (sort, ids) => {
    expect(filterAndSort(list, null, sort).map((p) => p.id)).toEqual(ids);
  });
  it('treats an unknown sort in the address as featured', () => {
    expect(parseSort('cheapest')).toBe('featured');
  });
  it('lists categories once, alphabetically', () => {
    expect(categoriesOf(list)).toEqual(['Classic', 'Premium']);
  });
  it('sorts names as the en-NZ collator does, case and macrons aside', () => {
    const names = ['kesar', 'Kesar', 'Mango Box 2', 'Apiti Gift', 'Āpiti Gift', 'Alphonso', 'Mango Box', 'banganapalli', 'Zebra', 'Mango box 1', 'Ōtaki Pears', 'Oro'];
    const collator = new Intl.Collator('en-NZ');
    expect([...names].sort(alphabetical)).toEqual([...names].sort(collator.compare));
  });
});
