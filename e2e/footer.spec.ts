import { expect, test } from './fixtures';

test('the footer shows the seeded opening hours, contact details and social links', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('9:00 AM - 5:00 PM (Mon-Sat)')).toBeVisible();
  await expect(footer.getByRole('link', { name: '09 555 0142' })).toHaveAttribute('href', 'tel:095550142');
  await expect(footer.getByRole('link', { name: 'hello@mangoshop.co.nz' })).toHaveAttribute('href', 'mailto:hello@mangoshop.co.nz');
  await expect(footer.getByRole('link', { name: 'Facebook' })).toHaveAttribute('href', 'https://www.facebook.com/mangoshopnz');
  await expect(footer.getByRole('link', { name: 'Instagram' })).toHaveAttribute('href', 'https://www.instagram.com/mangoshopnz');
  await expect(footer.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('href', 'https://wa.me/6495550142');
  await expect(footer.getByRole('img', { name: 'Mango Shop' })).toHaveAttribute('src', /^\/images\/logo\.svg\?v=\d+$/);
  await expect(footer.getByText(`© ${new Date().getFullYear()} Mango Shop. Prices in NZD.`)).toBeVisible();
});

test('the footer links to the quick links and customer-service pages', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  const links: Array<[name: string, href: string]> = [
    ['Home', '/'], ['Shop', '/shop'], ['About Us', '/about'], ['Contact Us', '/contact'], ['Mango Season Guide', '/mango-season-guide'],
    ['Shipping Policy', '/shipping-policy'], ['Refund Policy', '/refund-policy'], ['Terms & Conditions', '/terms-conditions'], ['Privacy Policy', '/privacy-policy'],
  ];
  for (const [name, href] of links) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
});
