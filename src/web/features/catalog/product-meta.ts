import type { MetaDescriptor } from 'react-router';
import { nzToday } from '../../../contracts/dates';
import { countryName } from '../../../contracts/origin';
import type { Product } from '../../../contracts/product';
import type { ProductReviews } from '../../../contracts/reviews';
import { pageTitle } from '../../lib/page-title';

function availability(product: Product): string {
  if (product.isPreOrder) return 'https://schema.org/PreOrder';
  return product.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock';
}

/** Where the boxes offered were grown: one schema.org Country, or each of them when they could come from several. */
function countryOfOrigin(product: Product) {
  const countries = product.origin.countries.map((code) => ({ '@type': 'Country', identifier: code, name: countryName(code) ?? code }));
  if (!countries.length) return {};
  return { countryOfOrigin: countries.length === 1 ? countries[0] : countries };
}

/**
 * The rating and reviews of verified buyers only (never the catalogue's own rating): Google's
 * review-snippet rules ask for reviews the page shows, by the people who wrote them.
 */
function reviewsOf(reviews: ProductReviews | null) {
  if (!reviews || reviews.average === null || !reviews.count) return {};
  const rating = (value: number) => ({ '@type': 'Rating', ratingValue: value, bestRating: 5, worstRating: 1 });
  return {
    aggregateRating: { '@type': 'AggregateRating', ratingValue: reviews.average, reviewCount: reviews.count, bestRating: 5, worstRating: 1 },
    review: reviews.reviews.map((review) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: review.author },
      datePublished: nzToday(new Date(review.createdAt)),
      ...(review.title ? { name: review.title } : {}),
      reviewBody: review.body,
      reviewRating: rating(review.rating),
    })),
  };
}

/** The schema.org Product of a product page: the price, currency and availability the page shows, and its verified reviews. */
export function productStructuredData(product: Product, siteUrl: string, reviews: ProductReviews | null = null) {
  const pageUrl = new URL(`/product/${product.id}`, siteUrl).toString();
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    image: [new URL(product.imageUrl, siteUrl).toString()],
    sku: `MANGO-${product.id}`,
    category: product.category,
    brand: { '@type': 'Brand', name: 'Mango Shop' },
    ...countryOfOrigin(product),
    ...reviewsOf(reviews),
    offers: {
      '@type': 'Offer',
      url: pageUrl,
      price: product.price.toFixed(2),
      priceCurrency: 'NZD',
      availability: availability(product),
      ...(product.isPreOrder && product.expectedAvailabilityDate ? { availabilityStarts: product.expectedAvailabilityDate } : {}),
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}

/**
 * A product page's head: title, description, canonical link, Open Graph tags and the Product
 * JSON-LD, so links shared or crawled show the mango. React escapes every value it writes.
 */
export function productMeta(product: Product, siteUrl: string, reviews: ProductReviews | null = null): MetaDescriptor[] {
  const pageUrl = new URL(`/product/${product.id}`, siteUrl).toString();
  const imageUrl = new URL(product.imageUrl, siteUrl).toString();
  const description = product.description.length > 160 ? `${product.description.slice(0, 157).trimEnd()}...` : product.description;
  const price = product.price.toFixed(2);
  return [
    { title: pageTitle(product.name) },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: pageUrl },
    { property: 'og:type', content: 'product' },
    { property: 'og:site_name', content: 'Mango Shop' },
    { property: 'og:title', content: product.name },
    { property: 'og:description', content: description },
    { property: 'og:url', content: pageUrl },
    { property: 'og:image', content: imageUrl },
    { property: 'og:image:alt', content: product.name },
    { property: 'og:locale', content: 'en_NZ' },
    { property: 'product:price:amount', content: price },
    { property: 'product:price:currency', content: 'NZD' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { 'script:ld+json': productStructuredData(product, siteUrl, reviews) },
  ];
}
