import { FarmGallery } from '../features/farm-gallery/farm-gallery';
import { FeaturedProducts } from '../features/home/featured-products';
import { HeroBand } from '../features/home/hero-band';
import { OurStory } from '../features/home/our-story';
import { TaglineBand } from '../features/home/tagline-band';
import { WhyChooseBand } from '../features/home/why-choose-band';
import { NewsletterBox } from '../features/newsletter/newsletter-box';
import { SeasonalChart } from '../features/season/seasonal-chart';
import { TestimonialsSection } from '../features/testimonials/testimonials-section';

/** Spec 2: the home page's sections, in the spec's order. */
export default function HomePage() {
  return (
    <div className="space-y-16 md:space-y-24">
      <HeroBand />
      <FeaturedProducts />
      <TaglineBand />
      <WhyChooseBand />
      <FarmGallery />
      <OurStory />
      <section aria-labelledby="seasonal-chart" className="min-w-0">
        <SeasonalChart headingId="seasonal-chart" />
      </section>
      <TestimonialsSection />
      <NewsletterBox />
    </div>
  );
}
