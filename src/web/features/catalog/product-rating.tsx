import { Star } from 'lucide-react';
import { formatRating } from './card-text';

/**
 * Spec 2: the rating to 1 decimal beside a star; `outOfFive` adds the scale for the product page.
 * A product no one has rated (0) shows no star: on the product page "Not rated yet", elsewhere nothing.
 */
export function ProductRating({ rating, large = false, outOfFive = false, className = '' }: { rating: number; large?: boolean; outOfFive?: boolean; className?: string }) {
  if (rating <= 0) return outOfFive ? <p className={`text-ink-500 ${large ? '' : 'text-sm'} ${className}`}>Not rated yet</p> : null;
  return (
    <p className={`flex items-center gap-1 font-semibold ${large ? '' : 'text-sm'} ${className}`}>
      <Star className={`${large ? 'size-5' : 'size-4'} fill-mango-500 text-mango-500`} aria-hidden="true" />
      <span className="sr-only">Rated </span>
      {formatRating(rating)}
      {outOfFive && <span className="font-normal text-ink-500"> out of 5</span>}
    </p>
  );
}
