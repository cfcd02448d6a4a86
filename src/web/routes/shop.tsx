import type { MetaArgs } from 'react-router';
import type { PageLoaderArgs } from '../lib/load-context';
import { productsQuery } from '../features/catalog/use-products';
import { loadInBrowser, loadOnServer, WithPageData } from '../lib/page-data';
import { pageMeta } from '../lib/page-meta';
import ShopPage from '../pages/shop-page';

export const loader = ({ context }: PageLoaderArgs) => loadOnServer(context, [productsQuery]);
export const clientLoader = () => loadInBrowser([productsQuery]);
export const meta = (args: MetaArgs) => pageMeta(args, { name: 'Shop' });

export default function ShopRoute() {
  return (
    <WithPageData>
      <ShopPage />
    </WithPageData>
  );
}
