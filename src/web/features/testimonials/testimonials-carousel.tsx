import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Testimonial } from '../../../contracts/content';
import { shopRules } from '../../../contracts/shop-rules';
import { TestimonialSlide } from './testimonial-slide';
import { useEmblaState } from './use-embla-state';
import { useLazyEmbla } from './use-lazy-embla';

const arrowClass =
  'flex size-11 items-center justify-center rounded-full border border-ink-900/15 bg-white text-ink-900 shadow-sm transition-colors hover:bg-mango-50 disabled:cursor-not-allowed disabled:opacity-40';

/** Spec 4 and 9: a looping carousel with one dot per group of 3 slides; dot i jumps to slide i x 3. */
export function TestimonialsCarousel({ testimonials }: { testimonials: Testimonial[] }) {
  const { viewportRef, api, withCarousel } = useLazyEmbla({ loop: true, align: 'start' });
  const { selectedIndex, canScrollPrev, canScrollNext } = useEmblaState(api);
  const groupSize = shopRules.carouselGroupSize;
  const groupCount = Math.ceil(testimonials.length / groupSize);
  const selectedGroup = Math.floor(selectedIndex / groupSize);

  return (
    <div role="group" aria-roledescription="carousel" aria-label="Customer testimonials" className="space-y-6">
      {/* relative: the slides' screen-reader text (absolutely placed) is clipped with them before
          the carousel starts, or the page would scroll sideways on a phone until it does. */}
      <div ref={viewportRef} className="relative overflow-hidden">
        <div className="-ml-4 flex touch-pan-y">
          {testimonials.map((testimonial, index) => (
            <div
              key={testimonial.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${testimonials.length}`}
              aria-current={index === selectedIndex ? 'true' : undefined}
              className="min-w-0 shrink-0 grow-0 basis-full pl-4 sm:basis-[90%] md:basis-[45%] lg:basis-[30%]"
            >
              <TestimonialSlide testimonial={testimonial} />
            </div>
          ))}
        </div>
      </div>
      <div className="flex items-center justify-center gap-4">
        <button type="button" aria-label="Previous testimonials" className={arrowClass} disabled={!canScrollPrev} onClick={() => withCarousel((carousel) => carousel.scrollPrev())}>
          <ChevronLeft aria-hidden="true" size={20} strokeWidth={1.5} />
        </button>
        <div className="flex items-center">
          {Array.from({ length: groupCount }, (_, group) => (
            <button
              key={group}
              type="button"
              aria-label={`Go to testimonials group ${group + 1}`}
              aria-current={group === selectedGroup ? 'true' : undefined}
              onClick={() => withCarousel((carousel) => carousel.scrollTo(group * groupSize))}
              className="group flex size-11 items-center justify-center"
            >
              <span
                aria-hidden="true"
                className={`block h-2.5 rounded-full transition-all ${group === selectedGroup ? 'w-6 bg-mango-600' : 'w-2.5 bg-ink-500/40 group-hover:bg-ink-500'}`}
              />
            </button>
          ))}
        </div>
        <button type="button" aria-label="Next testimonials" className={arrowClass} disabled={!canScrollNext} onClick={() => withCarousel((carousel) => carousel.scrollNext())}>
          <ChevronRight aria-hidden="true" size={20} strokeWidth={1.5} />
        </button>
      </div>
    </div>
  );
}
