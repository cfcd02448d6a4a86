import { Link } from 'react-router';
import { usePageTitle } from '../lib/page-title';

/** Routes of the spec whose screens are not open yet: they say so plainly and lead back to the shop. */
export default function ShopSectionPage({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-4xl font-semibold">{title}</h1>
      <p className="mt-4 text-ink-500">This part of Mango Shop is not open yet.</p>
      <Link to="/shop" className="mt-8 inline-block font-semibold text-mango-700 hover:underline">Browse our mangoes</Link>
    </section>
  );
}
