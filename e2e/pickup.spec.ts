import { expect, test } from './fixtures';
import { shootAtBothWidths } from './screenshots';
import { latestMailTo } from './mailbox';
import { addFromProductPage, admin, registerAndSignIn, signIn } from './shopper';

test('staff turn on click-and-collect; a shopper picks up with a code; staff mark it ready (mailed) and collected', async ({ page, request, browser }) => {
  test.setTimeout(90_000);
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  try {
    await signIn(staffPage, admin.email, admin.password);
    await staffPage.goto('/admin/delivery');
    const panel = staffPage.getByRole('region', { name: 'Click and collect' });
    await panel.getByRole('switch', { name: 'Offer pickup from the shop at checkout' }).check();
    // Every weekday but Sunday, so a day is always near whatever day the journey runs.
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']) await panel.getByRole('checkbox', { name: day, exact: true }).check();
    await panel.getByLabel('Pickups per day').fill('');
    await staffPage.getByRole('button', { name: 'Save delivery settings' }).click();
    await expect(panel.getByText('Enter a number of orders')).toBeVisible();
    await panel.getByLabel('Pickups per day').fill('30');
    await staffPage.getByRole('button', { name: 'Save delivery settings' }).click();
    await expect(staffPage.getByText('Delivery settings saved').first()).toBeVisible();
    await shootAtBothWidths(staffPage, 'admin-pickup-settings', panel);

    await registerAndSignIn(page, request, 'pukekoha');
    await addFromProductPage(page, 3);
    await page.goto('/checkout');
    const summary = page.getByRole('complementary', { name: 'Order summary' });
    await page.getByRole('radio', { name: /Pick up from the shop/ }).check();
    await expect(page.getByLabel('Street address')).toHaveCount(0);
    await expect(summary.getByText('$0.00')).toBeVisible();
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByText('Choose a pickup day')).toBeVisible();
    const day = page.getByRole('group', { name: 'Pickup day' }).getByRole('radio', { disabled: false }).first();
    await day.check();
    const pickupDay = (await day.getAttribute('value'))!;
    await shootAtBothWidths(page, 'checkout-pickup', page.getByRole('group', { name: 'How would you like your mangoes?' }));
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    const code = (await page.getByTestId('pickup-code').textContent())!.trim();
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    await expect(page.getByTestId('delivery-day')).toContainText('Pickup day:');
    const number = (await page.locator('strong.tabular-nums').first().textContent())!.trim();
    await shootAtBothWidths(page, 'success-pickup', page.getByTestId('pickup-code'));

    // Staff: the pickup list of the day, then the steps with the pickup's own words.
    await staffPage.goto(`/admin/dispatch?date=${pickupDay}`);
    const pickups = staffPage.getByRole('region', { name: /Pickups/ });
    await expect(pickups.getByText(code)).toBeVisible();
    await shootAtBothWidths(staffPage, 'dispatch-pickups', pickups);
    await staffPage.goto(`/admin/orders?order=${number}`);
    for (const [button, badge] of [
      ['Mark paid', 'Paid'],
      ['Mark packed', 'Packed'],
      ['Mark ready for pickup', 'Ready for pickup'],
    ] as const) {
      await staffPage.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: button }).click();
      await staffPage.getByRole('dialog').getByRole('button', { name: button }).click();
      await expect(staffPage.getByText(badge, { exact: true }).first()).toBeVisible();
    }
    const mailed = () => {
      try {
        return latestMailTo('pukekoha@example.nz');
      } catch {
        return '';
      }
    };
    await expect.poll(mailed).toContain(`Subject: Order ${number} is ready for pickup`);
    expect(mailed()).toContain(code);
    await staffPage.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Mark collected' }).click();
    await expect(staffPage.getByRole('dialog')).toContainText(code);
    await staffPage.getByRole('dialog').getByRole('button', { name: 'Mark collected' }).click();
    await expect(staffPage.getByText('Collected', { exact: true }).first()).toBeVisible();
    await shootAtBothWidths(staffPage, 'admin-order-pickup', staffPage.getByRole('heading', { name: 'Pickup', level: 3 }));
  } finally {
    // Pickup off again: the other journeys check out by courier as before.
    const settings = await (await staffPage.request.get('/api/admin/delivery')).json();
    await staffPage.request.put('/api/admin/delivery', { data: { ...settings, pickup: { ...settings.pickup, enabled: false } } });
    await staffContext.close();
  }
});
