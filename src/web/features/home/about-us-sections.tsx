import { FarmGallery } from '../farm-gallery/farm-gallery';
import { OurStory } from './our-story';
import { TaglineBand } from './tagline-band';
import { WhyChooseBand } from './why-choose-band';

/** Spec 2: the home page's sections about the shop, between its featured products and the chart. */
export function AboutUsSections() {
  return (
    <>
      <TaglineBand />
      <WhyChooseBand />
      <FarmGallery />
      <OurStory />
    </>
  );
}
