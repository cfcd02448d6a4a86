import { expect, test } from './fixtures';
import { shootAtBothWidths } from './screenshots';
import { admin, chooseFirstDeliveryDay, fillCheckoutTown, registerAndSignIn, signIn } from './shopper';

test('a shopper sends mangoes as a gift with a message; staff see "Gift" and a packing slip with the message and no prices', async ({ page, request, browser }) => {
  await registerAndSignIn(page, request, 'koha');
  await page.goto('/product/1');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Added!' })).toBeVisible();
  await page.goto('/checkout');
  await expect(page.getByLabel('Full name')).toHaveValue('Tama Hohaia');

  // Ticking "Send as a gift" empties the form for the recipient; unticking brings the buyer's details back.
  await page.getByLabel('Send as a gift').check();
  await expect(page.getByLabel('Recipient’s full name')).toHaveValue('');
  await expect(page.getByText('Save these details to my profile')).toHaveCount(0);
  await page.getByLabel('Send as a gift').uncheck();
  await expect(page.getByLabel('Full name')).toHaveValue('Tama Hohaia');
  await page.getByLabel('Send as a gift').check();

  await page.getByLabel('Recipient’s full name').fill('Mere Tawhiri');
  await page.getByLabel('Recipient’s phone').fill('022 765 4321');
  await page.getByLabel('Street address').fill('8 Tennyson Street');
  await fillCheckoutTown(page, 'Napier', '4110', "Hawke's Bay");
  const message = page.getByLabel('Gift message (optional)');
  await message.fill('x'.repeat(301));
  await expect(page.getByText('301 / 300 characters')).toBeVisible();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('A gift message can be at most 300 characters')).toBeVisible();
  await message.fill('Happy birthday, Mum!\nThe first Alphonsos of the season. Arohanui, Tama');
  await chooseFirstDeliveryDay(page);
  await shootAtBothWidths(page, 'checkout-gift', page.getByRole('checkbox', { name: 'Send as a gift' }));

  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
  await expect(page.getByText('A gift for Mere Tawhiri')).toBeVisible();
  await expect(page.getByText('Happy birthday, Mum!')).toBeVisible();
  const number = (await page.locator('strong.tabular-nums').first().textContent())!.trim();
  await shootAtBothWidths(page, 'success-gift', page.getByText('A gift for Mere Tawhiri'));

  // Staff: "Gift" on the list and the order, and the packing slip prints the message and no prices.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  try {
    await signIn(staffPage, admin.email, admin.password);
    await staffPage.goto(`/admin/orders?q=${number}`);
    await expect(staffPage.getByRole('row', { name: new RegExp(number) }).getByText('Gift')).toBeVisible();
    await staffPage.goto(`/admin/orders?order=${number}`);
    await expect(staffPage.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
    await expect(staffPage.getByRole('heading', { name: 'Gift', level: 3 })).toBeVisible();
    await staffPage.getByRole('button', { name: 'Packing slip' }).click();
    const slip = staffPage.getByRole('dialog');
    await expect(slip.getByText('GIFT: put no invoice or receipt in the box')).toBeVisible();
    await expect(slip.getByText('Happy birthday, Mum!')).toBeVisible();
    await expect(slip.getByText('Mere Tawhiri')).toBeVisible();
    await expect(slip).not.toContainText('$');
    await shootAtBothWidths(staffPage, 'packing-slip-gift');
  } finally {
    await staffContext.close();
  }
});
