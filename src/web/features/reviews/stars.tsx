import { Star, StarHalf } from 'lucide-react';

/** A rating as stars, to the nearest half, read out as "Rated 4.5 out of 5". */
export function Stars({ rating, size = 'size-4' }: { rating: number; size?: string }) {
  const halves = Math.round(rating * 2);
  return (
    <span className="inline-flex items-center gap-0.5" role="img" aria-label={`Rated ${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((stars) => (
        <span key={stars} className="relative inline-flex">
          <Star className={`${size} ${stars * 2 <= halves ? 'fill-mango-500 text-mango-600' : 'text-ink-500/40'}`} aria-hidden="true" />
          {stars * 2 - 1 === halves && <StarHalf className={`absolute inset-0 ${size} fill-mango-500 text-mango-600`} aria-hidden="true" />}
        </span>
      ))}
    </span>
  );
}
