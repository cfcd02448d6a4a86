import { loadedWhenNear } from '../../lib/loaded-when-near';
import { DeferredSeasonalChart } from '../season/seasonal-chart-section';

/** The space between the home page's sections. */
export const sectionSpacing = 'space-y-16 md:space-y-24';

// Below the first screen: their code loads as the shopper scrolls towards them (decision 0039).
export const AboutUsSections = loadedWhenNear(() => import('./about-us-sections').then((module) => module.AboutUsSections), sectionSpacing);
export const ClosingSections = loadedWhenNear(() => import('./closing-sections').then((module) => module.ClosingSections), sectionSpacing);

/**
 * For a home page reached in the browser: it shows whole, not section by section. Code that
 * cannot load fails the page as its own code would (the page offers a reload), rather than
 * leaving it without its sections.
 */
export function preloadLowerSections(): Promise<unknown> {
  return Promise.all([AboutUsSections.preload(), DeferredSeasonalChart.preload(), ClosingSections.preload()]);
}
