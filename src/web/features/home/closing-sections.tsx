import { NewsletterBox } from '../newsletter/newsletter-box';
import { TestimonialsSection } from '../testimonials/testimonials-section';

/** Spec 2: the home page's last sections, after the chart. */
export function ClosingSections() {
  return (
    <>
      <TestimonialsSection />
      <NewsletterBox />
    </>
  );
}
