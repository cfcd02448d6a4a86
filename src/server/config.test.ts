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
