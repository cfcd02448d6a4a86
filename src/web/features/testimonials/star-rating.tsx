import { Star, StarHalf } from 'lucide-react';

const maxStars = 5;

/** Spec 3: ratings go in half steps and show at most 5 stars. */
export function StarRating({ rating }: { rating: number }) {
  const shown = Math.min(maxStars, Math.max(0, Math.round(rating * 2) / 2));
  return (
    <div className="flex items-center gap-0.5 text-mango-500">
      <span className="sr-only">{`Rated ${shown} out of ${maxStars}`}</span>
      {Array.from({ length: maxStars }, (_, index) => {
        const fill = Math.min(1, Math.max(0, shown - index));
        return (
          <span key={index} aria-hidden="true" className="relative inline-flex">
            <Star size={20} strokeWidth={1.5} className={fill === 1 ? 'fill-current' : 'text-ink-500/30'} />
            {fill === 0.5 && <StarHalf size={20} strokeWidth={1.5} className="absolute inset-0 fill-current" />}
          </span>
        );
      })}
    </div>
  );
}
