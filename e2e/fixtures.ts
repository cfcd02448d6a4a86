import { type BrowserContext, test as base, expect, type Page } from '@playwright/test';

interface Fixtures {
  /** Console errors a journey expects (e.g. the browser's note on a 404 document). */
  expectedConsoleErrors: RegExp[];
  consoleErrors: string[];
}

/**
 * A loaded page paints first and fetches its code after that (decision 0024): until it has hydrated
 * a click on a button does nothing. A page without the app's module script (an API answer, a mail
 * preview) has nothing to wait for; nor has a context with JavaScript off.
 */
export async function untilHydrated(page: Page) {
  try {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true' || !document.querySelector('script[type="module"]'), undefined, { timeout: 15_000 });
  } catch (error) {
    throw new Error(`${page.url()} did not hydrate (its code failed to load or run, or the page's clock is paused: load it with waitUntil 'commit' then)`, { cause: error });
  }
}

const hydrationAware = new WeakSet<Page>();

/**
 * Code a page's Content-Security-Policy refuses (an eval a library tries and catches, an outside
 * script) fails the journey as an error would: Chrome counts it against the page. Contexts a
 * journey opens itself (a second shopper, a staff member) report theirs here too.
 */
const refusedScripts: string[] = [];
const refusalPrefix = 'Content-Security-Policy refused';

async function reportRefusedScripts(context: BrowserContext) {
  await context.addInitScript((prefix) => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`${prefix} ${event.blockedURI} (${event.violatedDirective}) at ${event.sourceFile}:${event.lineNumber}`));
  }, refusalPrefix);
}

/** A journey acts as soon as a page it loaded (goto, reload) is drawn and hydrated, as a shopper can. */
function waitingForHydration(page: Page): Page {
  if (hydrationAware.has(page)) return page;
  hydrationAware.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await untilHydrated(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== 'commit') await untilHydrated(page);
    return response;
  };
  return page;
}

/** Every journey fails on an unexpected console.error or page error (STYLE.md). */
export const test = base.extend<Fixtures, { hydrationAwareBrowser: void }>({
  // Pages a journey opens itself (a second shopper, a staff member) wait the same way.
  hydrationAwareBrowser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        if (options?.javaScriptEnabled !== false) {
          context.on('page', waitingForHydration);
          await reportRefusedScripts(context);
          context.on('console', (message) => {
            if (message.type() === 'error' && message.text().startsWith(refusalPrefix)) refusedScripts.push(message.text());
          });
        }
        return context;
      };
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  page: async ({ page, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled === false) return provide(page);
    await reportRefusedScripts(page.context());
    page.context().on('page', waitingForHydration);
    await provide(waitingForHydration(page));
  },
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
      refusedScripts.length = 0;
      await use(errors);
      expect([...errors, ...refusedScripts], 'console errors during the journey').toEqual([]);
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
