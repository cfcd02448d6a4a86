import { Spinner } from '../../components/ui/spinner';
import { fallbackTestimonials } from './fallback-testimonials';
import { TestimonialsCarousel } from './testimonials-carousel';
import { useTestimonials } from './use-testimonials';

/** Spec 2: 'What Our Customers Say'; on an error or an empty list the built-in testimonials show. */
export function TestimonialsSection() {
  const testimonials = useTestimonials();
  const shown = testimonials.data?.length ? testimonials.data : fallbackTestimonials;
  return (
    <section aria-labelledby="testimonials" className="space-y-8">
      <h2 id="testimonials" className="text-center text-3xl font-semibold">What Our Customers Say</h2>
      {testimonials.isPending ? <Spinner label="Loading testimonials..." /> : <TestimonialsCarousel testimonials={shown} />}
    </section>
  );
}
