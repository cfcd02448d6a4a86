import type { Page } from '@playwright/test';
import { expect, openHomeFromHeader, test } from './fixtures';

function carousel(page: Page) {
  return page.getByRole('region', { name: 'What Our Customers Say' });
}

test('six seeded testimonials make two dot groups that the dots and arrows move between', async ({ page }) => {
  await page.goto('/');
  const section = carousel(page);
  await section.scrollIntoViewIfNeeded();
  const dots = section.getByRole('button', { name: /^Go to testimonials group/ });
  await expect(dots).toHaveCount(2);
  await expect(section.getByRole('group', { name: /of 6$/ })).toHaveCount(6);
  await expect(section.getByText('Priya S., Auckland')).toBeVisible();
  await expect(section.getByText('Rated 4.5 out of 5').first()).toBeAttached();
  const firstDot = section.getByRole('button', { name: 'Go to testimonials group 1' });
  const secondDot = section.getByRole('button', { name: 'Go to testimonials group 2' });
  await expect(firstDot).toHaveAttribute('aria-current', 'true');

  await secondDot.click();
  await expect(secondDot).toHaveAttribute('aria-current', 'true');
  await expect(firstDot).not.toHaveAttribute('aria-current', 'true');
  await expect(section.getByRole('group', { name: '4 of 6' })).toHaveAttribute('aria-current', 'true');

  // Spec 4: with loop on, embla keeps both arrows usable.
  const previous = section.getByRole('button', { name: 'Previous testimonials' });
  const next = section.getByRole('button', { name: 'Next testimonials' });
  await expect(previous).toBeEnabled();
  await expect(next).toBeEnabled();
  await previous.click();
  await expect(section.getByRole('group', { name: '3 of 6' })).toHaveAttribute('aria-current', 'true');
  await expect(firstDot).toHaveAttribute('aria-current', 'true');
  await next.click();
  await expect(section.getByRole('group', { name: '4 of 6' })).toHaveAttribute('aria-current', 'true');
  await expect(secondDot).toHaveAttribute('aria-current', 'true');
});

test('on a wide screen each slide takes about 30% of the carousel', async ({ page }) => {
  await page.goto('/');
  const slide = carousel(page).getByRole('group', { name: '1 of 6' });
  await expect(slide).toBeVisible();
  const ratio = await slide.evaluate((element) => element.getBoundingClientRect().width / element.parentElement!.parentElement!.getBoundingClientRect().width);
  expect(ratio).toBeGreaterThan(0.28);
  expect(ratio).toBeLessThan(0.32);
});

test('with no testimonials on the server the three built-in ones show in one group', async ({ page }) => {
  await page.goto('/about');
  await page.route('**/api/testimonials', (route) => route.fulfill({ json: [] }));
  await openHomeFromHeader(page);
  const section = carousel(page);
  await expect(section.getByRole('group', { name: /of 3$/ })).toHaveCount(3);
  await expect(section.getByText('Kavita R., Auckland')).toBeVisible();
  await expect(section.getByText('James W., Nelson')).toBeVisible();
  await expect(section.getByText('Nisha P., Christchurch')).toBeVisible();
  await expect(section.getByRole('button', { name: /^Go to testimonials group/ })).toHaveCount(1);
});

test.describe('when the testimonials cannot be loaded', () => {
  test.use({ expectedConsoleErrors: [/status of 500/] });

  test('the error stays hidden and the built-in testimonials show', async ({ page }) => {
    await page.goto('/about');
    await page.route('**/api/testimonials', (route) => route.fulfill({ status: 500, body: 'Testimonials offline' }));
    await openHomeFromHeader(page);
    const section = carousel(page);
    await expect(section.getByText('Kavita R., Auckland')).toBeVisible();
    await expect(section.getByRole('alert')).toHaveCount(0);
    await expect(section.getByRole('button', { name: /^Go to testimonials group/ })).toHaveCount(1);
  });
});

test('the carousel code loads near the screen, and a dot pressed before it arrives is carried out', async ({ page }) => {
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  const asked: string[] = [];
  await page.route(/\/assets\/embla-carousel[^/]*\.js$/, async (route) => {
    asked.push(route.request().url());
    await arrived;
    await route.continue();
  });
  await page.goto('/');
  // Not with the first view: the carousel is far down the page.
  await page.waitForTimeout(500);
  expect(asked).toEqual([]);

  const section = carousel(page);
  await section.scrollIntoViewIfNeeded();
  await expect.poll(() => asked.length).toBe(1);
  const secondDot = section.getByRole('button', { name: 'Go to testimonials group 2' });
  await secondDot.click();
  await expect(section.getByRole('button', { name: 'Go to testimonials group 1' })).toHaveAttribute('aria-current', 'true');
  release();
  await expect(secondDot).toHaveAttribute('aria-current', 'true');
  await expect(section.getByRole('group', { name: '4 of 6' })).toHaveAttribute('aria-current', 'true');
});
