import { expect, test } from './fixtures';
import { shootAtBothWidths } from './screenshots';
import { admin, signIn } from './shopper';

test('every offer says where its fruit was grown and how it was treated: the owner sets it on a product, shoppers read it on the card, the page and its structured data', async ({ page, browser }) => {
  const name = `Sindhri Mangoes ${Date.now().toString(36)}`;
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/products');
  await page.getByRole('button', { name: 'New product' }).click();
  const editor = page.getByRole('dialog');
  // A new product starts from what the shop's products say, for the owner to confirm or change.
  await expect(editor.getByLabel('Country of origin')).toHaveValue('IN');
  await expect(editor.getByLabel('Treatment after harvest')).toHaveValue('irradiated');
  await editor.getByLabel('Name').fill(name);
  await editor.getByLabel('Category').fill('Classic');
  await editor.getByLabel('Description').fill('Honey-sweet Sindhri mangoes from Sindh, in season from June.');
  await editor.getByLabel('Image address').fill('/images/products/kesar.svg');
  await editor.getByLabel('Price (NZD, GST included)').fill('52');
  await editor.getByLabel('Opening stock').fill('8');
  // Left blank, the law's question stops the save, beside its field.
  await editor.getByLabel('Country of origin').selectOption('');
  await editor.getByRole('button', { name: 'Add product' }).click();
  await expect(editor.getByText('Choose the country its fruit is grown in')).toBeVisible();
  await editor.getByLabel('Country of origin').selectOption('PK');
  await editor.getByLabel('Treatment after harvest').selectOption('vapour-heat');
  await shootAtBothWidths(page, 'product-editor-origin', editor.getByRole('group', { name: 'Origin and treatment' }));
  await editor.getByRole('button', { name: 'Add product' }).click();
  await expect(editor).toBeHidden();

  const visitor = await browser.newPage();
  try {
    await visitor.goto('/shop');
    const card = visitor.getByRole('listitem').filter({ has: visitor.getByRole('heading', { name }) });
    await expect(card.getByTestId('origin')).toHaveText('Grown in Pakistan. Vapour-heat treated.');
    await shootAtBothWidths(visitor, 'card-origin', card);
    await card.getByRole('link', { name }).click();
    await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(visitor.getByRole('main').getByTestId('origin').first()).toHaveText('Grown in Pakistan. Vapour-heat treated.');
    const data = JSON.parse((await visitor.locator('script[type="application/ld+json"]').first().textContent())!) as { countryOfOrigin?: unknown };
    expect(data.countryOfOrigin).toEqual({ '@type': 'Country', identifier: 'PK', name: 'Pakistan' });
    await shootAtBothWidths(visitor, 'product-page-origin');

    // The seeded varieties are flown in from India, irradiated: the words the Standard asks for.
    await visitor.goto('/product/1');
    await expect(visitor.getByRole('main').getByTestId('origin').first()).toHaveText('Grown in India. Treated with ionising radiation.');
  } finally {
    await visitor.close();
  }
});
