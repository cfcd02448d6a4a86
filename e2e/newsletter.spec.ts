import { expect, test } from './fixtures';
import { latestMailTo } from './mailbox';

const address = `newsletter-${Date.now()}@example.nz`;

test.describe('newsletter', () => {
  test('a visitor sees both validation toasts, subscribes, gets the welcome mail and unsubscribes from it', async ({ page, request }) => {
    await page.goto('/');
    const box = page.getByRole('region', { name: 'Stay Updated' });
    await expect(box, 'the home page shows <NewsletterBox />').toBeVisible({ timeout: 15_000 });
    await box.scrollIntoViewIfNeeded();
    await expect(box.getByText('We respect your privacy. Unsubscribe at any time.')).toBeVisible();
    const field = box.getByRole('textbox', { name: 'Email address' });
    const button = box.getByRole('button', { name: 'Subscribe', exact: true });
    await expect(field).toHaveAttribute('type', 'email');
    await expect(field).toHaveAttribute('required', '');

    await button.click();
    await expect(page.getByText('Email Required').first()).toBeVisible();
    await expect(page.getByText('Please enter your email address.').first()).toBeVisible();

    await field.fill('not an email');
    await button.click();
    await expect(page.getByText('Invalid Email').first()).toBeVisible();
    await expect(page.getByText('Please enter a valid email address.').first()).toBeVisible();

    await field.fill(address);
    await button.click();
    // Submitting: still 'Subscribe', but the field and the button are locked while the POST runs.
    await expect(field).toBeDisabled();
    await expect(button).toBeDisabled();
    await expect(page.getByText('Subscribed!').first()).toBeVisible();
    await expect(page.getByText('Thank you for subscribing to our newsletter.').first()).toBeVisible();
    const done = box.getByRole('button', { name: 'Subscribed' });
    await expect(done).toBeDisabled();
    await expect(field).toBeDisabled();
    await expect(field).toHaveValue('');

    let mail = '';
    await expect
      .poll(() => {
        try {
          mail = latestMailTo(address);
        } catch {
          mail = '';
        }
        return mail;
      })
      .toContain('/api/newsletter/unsubscribe?token=');
    const link = /http\S+\/api\/newsletter\/unsubscribe\?token=[\w-]+/.exec(mail)?.[0];
    expect(link, 'the welcome mail carries an unsubscribe link').toBeTruthy();

    // Long header fields are folded onto the next line; unfolding (RFC 5322) joins them again.
    const unfolded = mail.replace(/\r?\n(?=[ \t])/g, '');
    expect(unfolded, 'mail clients are offered one-click unsubscribe (RFC 8058)').toContain(`List-Unsubscribe: <${link}>`);
    expect(unfolded).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

    // A mail scanner fetches the link before the reader does: that must not unsubscribe anyone.
    expect((await request.get(link!)).status()).toBe(200);
    await page.goto(link!);
    const confirmHeading = page.getByRole('heading', { name: 'Leave the newsletter?' });
    await expect(confirmHeading, 'after two GETs the address is still subscribed, so the page still asks').toBeVisible();
    await expect(page.getByText('Unsubscribed', { exact: true })).toHaveCount(0);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Unsubscribed' })).toBeVisible();
    await expect(page.getByText('You have been unsubscribed from the Mango Shop newsletter.')).toBeVisible();

    // The link now shows the address has left, so the asking page above really meant "still on the list".
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'Unsubscribed' })).toBeVisible();
    await expect(confirmHeading).toHaveCount(0);
  });
});
