import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-log';

describe('request log lines', () => {
  it('never carry a reset token from the address', () => {
    expect(redactUrl('/reset-password?token=abc123-_XYZ')).toBe('/reset-password?token=[redacted]');
    expect(redactUrl('/reset-password?utm=mail&token=abc&x=1')).toBe('/reset-password?utm=mail&token=[redacted]&x=1');
    expect(redactUrl('/api/products?search=token')).toBe('/api/products?search=token');
  });
});
