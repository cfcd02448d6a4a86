import type { Product } from '../../../contracts/product';
import { shopRules } from '../../../contracts/shop-rules';

/** What the server writes into index.html's head for one page (title, description, other tags). */
export interface PageHead {
  title: string;
  description: string;
  tags: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside a script element: `<` escaped so no text can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function absolute(url: string, publicUrl: string): string {
  return new URL(url, publicUrl).toString();
}

function availability(product: Product): string {
  if (product.isPreOrder) return 'https://schema.org/PreOrder';
  return product.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock';
}

/** A product page's description, Open Graph tags and schema.org Product (price in NZD). */
export function productHead(product: Product, publicUrl: string): PageHead {
  const pageUrl = absolute(`/product/${product.id}`, publicUrl);
  const imageUrl = absolute(product.imageUrl, publicUrl);
  const description = product.description.length > 160 ? `${product.description.slice(0, 157).trimEnd()}...` : product.description;
  const price = product.price.toFixed(2);
  const structured = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    image: [imageUrl],
    sku: `MANGO-${product.id}`,
    category: product.category,
    brand: { '@type': 'Brand', name: 'Mango Shop' },
    offers: {
      '@type': 'Offer',
      url: pageUrl,
      price,
      priceCurrency: 'NZD',
      availability: availability(product),
      ...(product.isPreOrder && product.expectedAvailabilityDate ? { availabilityStarts: product.expectedAvailabilityDate } : {}),
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}" />`;
  const tags = [
    `<link rel="canonical" href="${escapeHtml(pageUrl)}" />`,
    meta('og:type', 'product'),
    meta('og:site_name', 'Mango Shop'),
    meta('og:title', product.name),
    meta('og:description', description),
    meta('og:url', pageUrl),
    meta('og:image', imageUrl),
    meta('og:image:alt', product.name),
    meta('og:locale', 'en_NZ'),
    meta('product:price:amount', price),
    meta('product:price:currency', 'NZD'),
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<script type="application/ld+json">${jsonForScript(structured)}</script>`,
  ].join('\n    ');
  return { title: `${product.name} | ${shopRules.pageTitle}`, description, tags };
}

/**
 * `text` with the first match of `pattern` swapped for `replacement`, taken literally: a string
 * replacement would read `$&`, `$'` and `` $` `` in shop text as "paste part of the page here".
 */
function replaceLiterally(text: string, pattern: RegExp | string, replacement: string): string {
  return text.replace(pattern, () => replacement);
}

/** index.html with the page's own title, description and extra tags. */
export function withPageHead(indexHtml: string, head: PageHead): string {
  let html = replaceLiterally(indexHtml, /<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`);
  html = replaceLiterally(html, /<meta name="description" content="[^"]*"\s*\/?>/, `<meta name="description" content="${escapeHtml(head.description)}" />`);
  return replaceLiterally(html, '</head>', `  ${head.tags}\n  </head>`);
}
