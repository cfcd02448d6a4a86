import type { MetaArgs } from 'react-router';
import type { PageLoaderArgs } from '../lib/load-context';
import { pageMeta } from '../lib/page-meta';
import { productsQuery } from '../features/catalog/use-products';
import { farmGalleryQuery } from '../features/farm-gallery/use-farm-gallery';
import { preloadLowerSections } from '../features/home/lower-sections';
import { testimonialsQuery } from '../features/testimonials/use-testimonials';
import { loadInBrowser, loadOnServer, WithPageData } from '../lib/page-data';
import HomePage from '../pages/home-page';

const queries = [productsQuery, testimonialsQuery, farmGalleryQuery];

export const loader = ({ context }: PageLoaderArgs) => loadOnServer(context, queries);
// Reached in the browser, the page waits for its lower sections' code too, as it does for its own.
export const clientLoader = async () => (await Promise.all([loadInBrowser(queries), preloadLowerSections()]))[0];
export const meta = (args: MetaArgs) => pageMeta(args);

export default function HomeRoute() {
  return (
    <WithPageData>
      <HomePage />
    </WithPageData>
  );
}
