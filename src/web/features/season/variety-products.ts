import type { Product } from '../../../contracts/product';
import type { Variety } from './season-calendar';

/**
 * The shop's product for each variety of the chart: the visible product named "<Variety> Mangoes",
 * else the first whose name starts with the variety ("Alphonso Gift Box"). Varieties the shop does
 * not sell have none.
 */
export function productsOfVarieties(varieties: readonly Variety[], products: readonly Product[]): Map<string, Product> {
  const found = new Map<string, Product>();
  for (const variety of varieties) {
    const name = variety.name.toLocaleLowerCase('en-NZ');
    const named = (p: Product) => p.name.toLocaleLowerCase('en-NZ');
    const product = products.find((p) => named(p) === `${name} mangoes`) ?? products.find((p) => named(p).startsWith(`${name} `));
    if (product) found.set(variety.name, product);
  }
  return found;
}
