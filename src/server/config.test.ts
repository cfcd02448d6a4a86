import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const stripeKeys = { STRIPE_SECRET_KEY: 'sk_test_mango', STRIPE_WEBHOOK_SECRET: 'whsec_test_mango' };

describe('STRIPE_API_URL', () => {
  it('takes a scheme, host and port, as Stripe\'s SDK does', () => {
    expect(loadConfig({ ...stripeKeys }).stripe?.apiUrl).toBe('https://api.stripe.com');
    expect(loadConfig({ ...stripeKeys, STRIPE_API_URL: 'http://127.0.0.1:4374/' }).stripe?.apiUrl).toBe('http://127.0.0.1:4374');
  });

  it('refuses an address with a path or another scheme, with one clear line', () => {
    expect(() => loadConfig({ ...stripeKeys, STRIPE_API_URL: 'https://proxy.example.nz/stripe' })).toThrow(
      'STRIPE_API_URL: must be a scheme, host and port only, such as https://api.stripe.com',
    );
    expect(() => loadConfig({ ...stripeKeys, STRIPE_API_URL: 'ftp://api.stripe.com' })).toThrow('STRIPE_API_URL: must be a full http(s) URL');
  });
});

describe('SHOP_CLOCK_START', () => {
  it('starts the shop\'s clock at an instant, for tests', () => {
    expect(loadConfig({}).clockStart).toBeUndefined();
    expect(loadConfig({ SHOP_CLOCK_START: '2026-12-03T19:30:00+13:00' }).clockStart?.toISOString()).toBe('2026-12-03T06:30:00.000Z');
  });

  it('refuses a value that is not an instant', () => {
    expect(() => loadConfig({ SHOP_CLOCK_START: 'Thursday evening' })).toThrow('SHOP_CLOCK_START: must be an ISO 8601 instant');
    expect(() => loadConfig({ SHOP_CLOCK_START: '2026-12-03' })).toThrow('SHOP_CLOCK_START: must be an ISO 8601 instant');
  });
});
