import { data, type LoaderFunctionArgs, type MetaArgs } from 'react-router';
import type { PageLoaderArgs } from '../lib/load-context';
import type { Product } from '../../contracts/product';
import type { ProductReviews } from '../../contracts/reviews';
import { ProductReviewsSection } from '../features/reviews/product-reviews-section';
import { productReviewsQuery } from '../features/reviews/reviews-api';
import { productMeta } from '../features/catalog/product-meta';
import { productId, productQuery } from '../features/catalog/use-product';
import { productsQuery } from '../features/catalog/use-products';
import { loadInBrowser, loadOnServer, type PageData, WithPageData } from '../lib/page-data';
import { pageMeta, queryDataOf, siteUrlOf } from '../lib/page-meta';
import ProductPage from '../pages/product-page';


/** The product, the list ("You might also like") and the first reviews in the HTML; a missing product answers 404. */
export function loader({ context, params }: PageLoaderArgs) {
  const id = productId(params.id);
  if (id === null) return data<PageData>({ dehydrated: undefined }, { status: 404 });
  return loadOnServer(context, [productQuery(id), productsQuery, productReviewsQuery(id)]);
}

export async function clientLoader({ params, request }: LoaderFunctionArgs) {
  const id = productId(params.id);
  // A link to the review form (from an order's page): the section's code is here before the page
  // is drawn, so the browser finds #write-review to scroll to.
  const writing = new URL(request.url).searchParams.get('review') === 'write';
  const [answer] = await Promise.all([loadInBrowser(id === null ? [] : [productQuery(id), productsQuery, productReviewsQuery(id)]), writing ? ProductReviewsSection.preload().catch(() => undefined) : undefined]);
  return answer;
}

export function meta(args: MetaArgs) {
  const id = productId(args.params.id);
  const product = id === null ? null : queryDataOf<Product>(args.data, productQuery(id).queryKey);
  if (product) return productMeta(product, siteUrlOf(args.matches), queryDataOf<ProductReviews>(args.data, productReviewsQuery(product.id).queryKey) ?? null);
  return pageMeta(args, product === null ? { name: 'Product not found', noindex: true } : {});
}

export default function ProductRoute() {
  return (
    <WithPageData>
      <ProductPage />
    </WithPageData>
  );
}
