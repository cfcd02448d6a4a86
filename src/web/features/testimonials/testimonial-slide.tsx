import type { Testimonial } from '../../../contracts/content';
import { StarRating } from './star-rating';
import { ResponsiveImage } from '../../components/ui/responsive-image';

/** 'Priya S., Auckland' becomes 'PS': the name before the town, first letters of two words. */
function initialsOf(author: string): string {
  const name = author.split(',')[0] ?? author;
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((word) => word[0]?.toUpperCase() ?? '').join('');
}

export function TestimonialSlide({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col gap-5 rounded-2xl bg-white p-6 shadow-sm">
      <StarRating rating={testimonial.rating} />
      <blockquote className="flex-1 leading-relaxed text-ink-900">
        <p>“{testimonial.content}”</p>
      </blockquote>
      <figcaption className="flex items-center gap-3">
        {testimonial.imageUrl ? (
          <ResponsiveImage src={testimonial.imageUrl} image={testimonial.image} alt="" sizes="48px" box={{ width: 48, height: 48 }} className="size-12 rounded-full object-cover" />
        ) : (
          <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-mango-50 font-semibold text-leaf-700">
            {initialsOf(testimonial.author)}
          </span>
        )}
        <span className="font-semibold">{testimonial.author}</span>
      </figcaption>
    </figure>
  );
}
