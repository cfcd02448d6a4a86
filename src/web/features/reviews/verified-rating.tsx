import { BadgeCheck } from 'lucide-react';
import { verifiedSummary } from '../../../contracts/reviews';
import { useProductReviews } from './reviews-api';

/** Beside the product's rating: "4.6 from 23 verified buyers", a link down to their reviews. */
export function VerifiedRating({ productId }: { productId: number }) {
  const reviews = useProductReviews(productId).data;
  if (!reviews || reviews.average === null) return null;
  return (
    <a href="#reviews" className="inline-flex items-center gap-1 text-sm font-medium text-mango-700 hover:underline">
      <BadgeCheck className="size-4 text-leaf-700" aria-hidden="true" />
      {verifiedSummary(reviews.average, reviews.count)}
    </a>
  );
}
