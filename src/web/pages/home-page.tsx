import { FeaturedProducts } from '../features/home/featured-products';
import { HeroBand } from '../features/home/hero-band';
import { AboutUsSections, ClosingSections, sectionSpacing } from '../features/home/lower-sections';
import { SeasonalChart } from '../features/season/seasonal-chart';

/** Spec 2: the home page's sections, in the spec's order. */
export default function HomePage() {
  return (
    <div className={sectionSpacing}>
      <HeroBand />
      <FeaturedProducts />
      <AboutUsSections />
      <section aria-labelledby="seasonal-chart" className="min-w-0">
        <SeasonalChart headingId="seasonal-chart" />
      </section>
      <ClosingSections />
    </div>
  );
}
