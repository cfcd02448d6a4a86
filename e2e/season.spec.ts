import { expect, test } from './fixtures';

test('in June the chart shows the varieties at their peak and highlights June', async ({ page }) => {
  await page.clock.install({ time: new Date('2027-06-15T10:00:00') });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Seasonal Availability Chart' })).toBeVisible();
  await expect(page.getByText('Plan ahead with our mango calendar to get your favorites at peak season')).toBeVisible();

  const banner = page.getByTestId('in-season-banner');
  await expect(banner.getByRole('heading', { name: 'Currently in Season (June)' })).toBeVisible();
  // Spec 3: every variety but Chausa (Jul-Aug) peaks in June.
  await expect(banner.getByText('20 varieties in peak season')).toBeVisible();
  await expect(banner.getByRole('listitem')).toHaveCount(20);
  await expect(banner.getByRole('listitem', { name: 'Chausa' })).toHaveCount(0);

  const table = page.getByRole('table', { name: 'Complete Availability Chart' });
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(21);
  await expect(table.getByRole('columnheader')).toHaveCount(13);
  await expect(table.locator('th[data-current-month]')).toHaveCount(1);
  await expect(table.locator('th[data-current-month]')).toContainText('Jun');

  const chausa = table.getByRole('row', { name: /Chausa/ });
  await expect(chausa.locator('td[data-status="peak"]')).toHaveCount(2);
  await expect(chausa.locator('td[data-month="Jul"]')).toHaveText('Peak Season');
  await expect(chausa.locator('td[data-month="Jun"]')).toHaveText('');
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText('Available');
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText('Peak Season');
});

test('the availability table appears shortly after the page loads', async ({ page }) => {
  await page.clock.install({ time: new Date('2027-06-15T10:00:00') });
  await page.clock.pauseAt(new Date('2027-06-15T10:00:01'));
  // With the clock paused even the page's code waits for fake time (it is fetched after the first
  // frame), so the page is not waited for to hydrate: the clock moves in small steps until it has
  // (the chart's effects run before the layout's); the chart's 300 ms reveal timer starts then.
  await page.goto('/', { waitUntil: 'commit' });
  await page.waitForLoadState('load');
  const hydrated = () => page.evaluate(() => document.documentElement.dataset.hydrated === 'true');
  for (let step = 0; step < 500 && !(await hydrated()); step += 1) await page.clock.runFor(20);
  const banner = page.getByTestId('in-season-banner');
  await expect(banner).toBeVisible();
  const table = page.getByRole('table', { name: 'Complete Availability Chart' });
  await expect(table).toBeHidden();
  await page.clock.runFor(300);
  await expect(table).toBeVisible();
});

test('in November no variety is at its peak, and the banner says so', async ({ page }) => {
  await page.clock.install({ time: new Date('2026-11-10T10:00:00') });
  await page.goto('/');
  const banner = page.getByTestId('in-season-banner');
  await expect(banner.getByRole('heading', { name: 'Currently in Season (November)' })).toBeVisible();
  await expect(banner.getByText('0 varieties in peak season')).toBeVisible();
  await expect(banner.getByText('No varieties are at their peak this month. Pre-order now for the new season.')).toBeVisible();
  const table = page.getByRole('table', { name: 'Complete Availability Chart' });
  await expect(table.locator('th[data-current-month]')).toContainText('Nov');
  await expect(table.locator('td[data-month="Nov"][data-status="peak"]')).toHaveCount(0);
});

test('on a 390 px phone the table scrolls sideways inside its box, not the page', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const table = page.getByRole('table', { name: 'Complete Availability Chart' });
  await expect(table).toBeVisible();
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(390);
  const scroller = page.getByRole('region', { name: 'Complete Availability Chart' });
  const overflows = await scroller.evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(overflows).toBe(true);
});
