import { test as base, expect, type Page } from '@playwright/test';

interface Fixtures {
  /** Console errors a journey expects (e.g. the browser's note on a 404 document). */
  expectedConsoleErrors: RegExp[];
  consoleErrors: string[];
}

/** Every journey fails on an unexpected console.error or page error (STYLE.md). */
export const test = base.extend<Fixtures>({
  expectedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, expectedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        // Patterns see the message with the address it came from: "...status of 400 ... (http://.../api/admin/uploads)".
        const seen = `${message.text()} (${message.location().url})`;
        if (message.type() === 'error' && !expectedConsoleErrors.some((pattern) => pattern.test(seen))) errors.push(seen);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors during the journey').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Goes to the home page by the header's link: a client navigation, whose data the browser asks
 * for itself (a first visit gets it in the server's HTML), so a test can answer those requests.
 */
export async function openHomeFromHeader(page: Page) {
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).first().click();
  await expect(page).toHaveURL(/\/$/);
}
