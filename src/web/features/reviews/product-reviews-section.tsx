import { loadedWhenNear } from '../../lib/loaded-when-near';

/** The product page's reviews, below the fold: drawn by the server, its code loaded when the shopper comes near (decision 0039). */
export const ProductReviewsSection = loadedWhenNear(() => import('./product-reviews').then((module) => module.ProductReviews));
