import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shootAtBothWidths } from './screenshots';
import { chooseFirstDeliveryDay, fillCheckoutTown, registerAndSignIn } from './shopper';

/** Whether `locator` is inside the viewport now (not only somewhere on the page). */
async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const height = page.viewportSize()!.height;
  return Boolean(box && box.y >= 0 && box.y + box.height <= height);
}

test.describe('a phone shopper', () => {
  test('checkout moves to the first field in error and sums up what is left to fix by the button', async ({ page, request }) => {
    await registerAndSignIn(page, request, 'aroha-errors');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/product/1');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Added!' })).toBeVisible();
    await page.goto('/checkout');
    await expect(page.getByLabel('Full name')).toHaveValue('Tama Hohaia');
    await page.getByLabel('Phone').fill('');
    await page.getByRole('button', { name: 'Place order' }).click();

    // The phone is the first field in error: focused and on screen, not far above the button.
    const phone = page.getByLabel('Phone');
    await expect(phone).toBeFocused();
    expect(await onScreen(page, phone)).toBe(true);
    const summary = page.getByRole('alert').filter({ hasText: /\d+ things? to fix/ });
    await expect(summary.getByText('5 things to fix')).toBeVisible();
    await expect(summary.getByRole('listitem')).toHaveText(['Phone number is required', 'City is required', 'Postcode must be 4 digits', 'Choose a region', 'Choose a delivery date']);
    await shootAtBothWidths(page, 'checkout-error-summary', summary);
    await page.setViewportSize({ width: 390, height: 844 });

    await phone.fill('022 123 4567');
    await fillCheckoutTown(page, 'Wellington', '6011', 'Wellington');
    await expect(summary.getByText('1 thing to fix')).toBeVisible();
    await page.getByRole('button', { name: 'Place order' }).click();
    const firstDay = page.getByRole('group', { name: 'Delivery day' }).getByRole('radio', { disabled: false }).first();
    await expect(firstDay).toBeFocused();
    expect(await onScreen(page, firstDay)).toBe(true);

    // A line of the summary takes the shopper to its field.
    await page.getByRole('button', { name: 'Place order' }).focus();
    await summary.getByRole('button', { name: 'Choose a delivery date' }).click();
    await expect(firstDay).toBeFocused();
    await chooseFirstDeliveryDay(page);
    await expect(summary).toHaveCount(0);
  });
});
