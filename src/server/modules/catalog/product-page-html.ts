import type { PageHtml } from '../../lib/web-app';
import { productHead, withPageHead } from './product-head';
import type { CatalogService } from './service';

const productPath = /^\/product\/(\d{1,9})\/?$/;

/**
 * /product/{id} answers with the product's title, description, Open Graph tags and JSON-LD in its
 * HTML, so links shared or crawled show the mango; a missing or hidden product answers 404.
 */
export function productPageHtml(catalog: CatalogService, publicUrl: string): PageHtml {
  return async (pathname, indexHtml) => {
    if (!pathname.startsWith('/product/')) return undefined;
    const id = Number(productPath.exec(pathname)?.[1]);
    const product = (await catalog.current()).byId.get(id);
    if (!product || product.isHidden) return { html: indexHtml, status: 404 };
    return { html: withPageHead(indexHtml, productHead(product, publicUrl)) };
  };
}
