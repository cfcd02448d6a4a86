import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** Browser tests drive Debian's Chromium, never a downloaded browser. */
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  throw new Error(
    `Browser tests need Chromium at ${chromium}. Install it with "apt-get install chromium" (Debian), or set CHROMIUM_PATH.`,
  );
}

const port = Number(process.env.E2E_PORT ?? 4173);
// The config is read by the runner and by each worker: the data folder is made once and handed on.
process.env.MANGO_E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'mango-e2e-'));
const dataDir = process.env.MANGO_E2E_DATA_DIR;
// Card payments go to a Stripe double on the next port (e2e/stripe-double.ts).
const stripeDoublePort = port + 1;
const stripe = { STRIPE_SECRET_KEY: 'sk_test_mango_e2e', STRIPE_WEBHOOK_SECRET: 'whsec_mango_e2e' };

export default defineConfig({
  testDir: './e2e',
  // One folder per port, so runs on different ports never clear each other's artifacts.
  outputDir: `test-results/e2e-${port}`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  // Two cores: the first page of a run (cold server, lazy chunks) can take a few seconds.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
  webServer: [
    {
      command: 'node_modules/.bin/tsx e2e/stripe-double.ts',
      url: `http://127.0.0.1:${stripeDoublePort}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...stripe, STRIPE_DOUBLE_PORT: String(stripeDoublePort), SHOP_URL: `http://127.0.0.1:${port}` },
    },
    {
      // The shop as npm start runs it (compiled server, built web app) on a fresh embedded database of its own.
      command: 'node_modules/.bin/tsx scripts/build.ts --if-changed && node --enable-source-maps dist/server/main.js',
      url: `http://127.0.0.1:${port}/readyz`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: 'owner@mangoshop.co.nz',
        ADMIN_PASSWORD: 'orchard-keys-2026',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        // Every journey signs its shoppers up from this one address: more than a shop's hourly 60.
        REGISTRATIONS_PER_IP_PER_HOUR: '200',
        ...stripe,
        STRIPE_API_URL: `http://127.0.0.1:${stripeDoublePort}`,
        // E2E_CLOCK_START runs the shop on a clock of its own (scripts/e2e-every-day.ts walks the week).
        ...(process.env.E2E_CLOCK_START ? { SHOP_CLOCK_START: process.env.E2E_CLOCK_START } : {}),
      },
    },
  ],
});
