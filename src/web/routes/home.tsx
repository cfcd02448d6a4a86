import type { MetaArgs } from 'react-router';
import type { PageLoaderArgs } from '../lib/load-context';
import { pageMeta } from '../lib/page-meta';
import { productsQuery } from '../features/catalog/use-products';
import { farmGalleryQuery } from '../features/farm-gallery/use-farm-gallery';
import { testimonialsQuery } from '../features/testimonials/use-testimonials';
import { loadInBrowser, loadOnServer, WithPageData } from '../lib/page-data';
import HomePage from '../pages/home-page';

const queries = [productsQuery, testimonialsQuery, farmGalleryQuery];

export const loader = ({ context }: PageLoaderArgs) => loadOnServer(context, queries);
export const clientLoader = () => loadInBrowser(queries);
export const meta = (args: MetaArgs) => pageMeta(args);

export default function HomeRoute() {
  return (
    <WithPageData>
      <HomePage />
    </WithPageData>
  );
}
