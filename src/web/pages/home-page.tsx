import { FeaturedProducts } from '../features/home/featured-products';
import { HeroBand } from '../features/home/hero-band';
import { AboutUsSections, ClosingSections, sectionSpacing } from '../features/home/lower-sections';
import { SeasonalChartSection } from '../features/season/seasonal-chart-section';

/** Spec 2: the home page's sections, in the spec's order. */
export default function HomePage() {
  return (
    <div className={sectionSpacing}>
      <HeroBand />
      <FeaturedProducts />
      <AboutUsSections />
      <SeasonalChartSection headingId="seasonal-chart" />
      <ClosingSections />
    </div>
  );
}
