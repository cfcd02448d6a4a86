import { expect, test } from './fixtures';
import { resetTokenMailedTo } from './mailbox';

const shopper = {
  username: 'kahu',
  firstName: 'Kahu',
  lastName: 'Tane',
  email: 'kahu@example.nz',
  phone: '021 555 0199',
  address: '7 Karangahape Road',
  password: 'Mango-Season-2027',
};

test.describe('registration and sign-in', () => {
  test.use({ expectedConsoleErrors: [/status of 40[01]/] });

  test('a visitor registers after seeing every validation message, then signs in and out', async ({ page }) => {
    await page.goto('/auth?signup=true');
    await expect(page.getByRole('heading', { name: 'Create Account', exact: true })).toBeVisible();
    await expect(page).toHaveTitle('Create Account | Premium Mangoes Delivered Fresh');
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      'Username must be at least 3 characters',
      'First name is required',
      'Last name is required',
      'Email address is required',
      'Phone number is required',
      'Home address is required',
      'Password must be at least 6 characters',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await page.getByLabel('Email').fill('kahu@example');
    await page.getByLabel('Phone').fill('1234 5678');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Must be a valid NZ mobile number format')).toBeVisible();

    await page.getByLabel('Username').fill(shopper.username);
    await page.getByLabel('First name').fill(shopper.firstName);
    await page.getByLabel('Last name').fill(shopper.lastName);
    await page.getByLabel('Email').fill(shopper.email);
    await page.getByLabel('Phone').fill(shopper.phone);
    await page.getByLabel('Home address').fill(shopper.address);
    await page.getByLabel('Password', { exact: true }).fill('mango');
    await expect(page.getByText('Weak')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(shopper.password);
    await expect(page.getByText('Strong')).toBeVisible();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Registration Successful').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();

    await page.getByLabel('Email').fill(shopper.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Login Failed').first()).toBeVisible();
    await expect(page.getByText('Invalid email or password').first()).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill(shopper.password);
    await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Welcome back!').first()).toBeVisible();
    await expect(page.getByText(`Successfully logged in as ${shopper.username}`).first()).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: shopper.username })).toBeVisible();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null')?.username)).toBe(shopper.username);

    await page.reload();
    await expect(page.getByRole('link', { name: shopper.username })).toBeVisible();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByText('Logged Out').first()).toBeVisible();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  test('the sign-in dialog opens from the header, switches modes and shows the password on request', async ({ page }) => {
    await page.goto('/shop');
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(dialog.getByText('Welcome back! Please enter your details.')).toBeVisible();
    await expect(dialog.getByLabel('Email')).toBeFocused();
    await dialog.getByLabel('Password', { exact: true }).fill('secret1');
    await dialog.getByRole('button', { name: 'Show password' }).click();
    await expect(dialog.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await dialog.getByRole('button', { name: 'Create an account' }).click();
    await expect(dialog.getByRole('heading', { name: 'Create Account', exact: true })).toBeVisible();
    await expect(dialog.getByLabel('Username')).toBeFocused();
    await dialog.getByRole('button', { name: 'Sign in instead' }).click();
    await dialog.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(dialog.getByRole('heading', { name: 'Forgot Password', exact: true })).toBeVisible();
    await expect(dialog.getByText("We'll send you a link to reset your password")).toBeVisible();
    await dialog.getByRole('button', { name: 'Back to login' }).click();
    await expect(dialog.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test.describe('password reset', () => {
  test.use({ expectedConsoleErrors: [/status of 40[01]/] });

  test('a shopper who forgot their password resets it with the mailed link and signs in', async ({ page, request }) => {
    const email = 'moana.reset@example.nz';
    const created = await request.post('/api/register', {
      data: { username: 'moana', email, password: 'old-password-1', firstName: 'Moana', lastName: 'Reti', phone: '027 444 1234', address: '3 Cuba Street', city: '', postalCode: '', region: '' },
    });
    expect(created.status()).toBe(201);

    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Forgot password?' }).click();
    await dialog.getByLabel('Email').fill(`  ${email.toUpperCase()} `);
    await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Password Reset Email Sent').first()).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();

    await expect.poll(() => resetTokenMailedTo(email)).not.toBe('');
    const token = resetTokenMailedTo(email);
    await page.goto(`/reset-password?token=${token}`);
    await page.getByLabel('New password', { exact: true }).fill('new-password-2');
    await page.getByLabel('Confirm new password').fill('new-password-2');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Your password has been changed.')).toBeVisible();

    await page.goto(`/reset-password?token=${token}`);
    await page.getByLabel('New password', { exact: true }).fill('third-password-3');
    await page.getByLabel('Confirm new password').fill('third-password-3');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('This reset link is invalid or has expired. Please ask for a new one.')).toBeVisible();

    await page.goto('/auth');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('new-password-2');
    await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('link', { name: 'moana' })).toBeVisible();
  });
});
