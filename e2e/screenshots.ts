import type { Locator, Page } from '@playwright/test';
import { test } from './fixtures';

/**
 * Screenshots at 390 and 1280 px for looking at what a journey built: the viewport with `focus`
 * just under the sticky header, or the first screen of the page.
 */
export async function shootAtBothWidths(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // The layout settles at the new width before the region is scrolled to.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if (focus) await focus.evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 90));
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}
