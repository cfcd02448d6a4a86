import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestShop, type TestShop } from '../testing/test-app';
import { rateLimitAddress } from './client-address';

const login = (shop: TestShop, remoteAddress: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers, payload: { email: 'nobody@example.nz', password: 'wrong-password' } });

async function statusesOf(shop: TestShop, attempts: Array<[remote: string, forwardedFor?: string]>) {
  const statuses: number[] = [];
  for (const [remote, forwardedFor] of attempts) {
    statuses.push((await login(shop, remote, forwardedFor ? { 'x-forwarded-for': forwardedFor } : {})).statusCode);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  it('takes a hop count or the proxies’ addresses, and refuses a bare true', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.1.0/24' }).trustProxy).toEqual(['10.0.0.1', '10.0.1.0/24']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: .*number of proxies.*addresses/);
    expect(() => loadConfig({ TRUST_PROXY: 'not-an-address' })).toThrow(/TRUST_PROXY/);
  });
});

describe.each([
  ['one trusted hop', '1'],
  ['the proxy’s address', '10.0.0.1'],
])('behind a load balancer (TRUST_PROXY as %s)', (_name, trustProxy) => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop({ TRUST_PROXY: trustProxy, LOGIN_FAILS_PER_IP: '3' });
  });
  afterAll(async () => shop?.close());

  it('counts the address the proxy saw, whatever the client wrote to the left of it', async () => {
    const statuses = await statusesOf(shop, [
      ['10.0.0.1', '198.51.100.1, 203.0.113.50'],
      ['10.0.0.1', '198.51.100.2, 203.0.113.50'],
      ['10.0.0.1', '203.0.113.50'],
      ['10.0.0.1', '198.51.100.4, 203.0.113.50'],
    ]);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await statusesOf(shop, [['10.0.0.1', '203.0.113.51']])).toEqual([401]);
  });
});

describe('IPv6 clients', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop({ LOGIN_FAILS_PER_IP: '3' });
  });
  afterAll(async () => shop?.close());

  it('are counted by their /64, so one household cannot rotate through its addresses', async () => {
    const statuses = await statusesOf(shop, [['2001:db8:1:2::a'], ['2001:db8:1:2::b'], ['2001:db8:1:2:ffff:1:2:3'], ['2001:db8:1:2::c']]);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await statusesOf(shop, [['2001:db8:1:3::a']])).toEqual([401]);
  });

  it('group by /64 in every spelling, and IPv4 mapped into IPv6 counts as IPv4', () => {
    expect(rateLimitAddress('2001:DB8:1:2:0:0:0:A')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(rateLimitAddress('2001:db8::5:6:7:1.2.3.4')).toBe('2001:db8:0:5::/64');
    expect(rateLimitAddress('192.0.2.7')).toBe('192.0.2.7');
  });

  it('count an IPv4 address written inside IPv6 (mapped or NAT64, dotted or hex) as that IPv4 address', () => {
    expect(rateLimitAddress('::ffff:c000:280')).toBe('192.0.2.128');
    expect(rateLimitAddress('::FFFF:C000:0280')).toBe('192.0.2.128');
    expect(rateLimitAddress('0:0:0:0:0:ffff:192.0.2.128')).toBe('192.0.2.128');
    expect(rateLimitAddress('64:ff9b::192.0.2.33')).toBe('192.0.2.33');
    expect(rateLimitAddress('64:ff9b::c000:221')).toBe('192.0.2.33');
    expect(rateLimitAddress('64:ff9b:0:0:0:0:cb00:7101')).toBe('203.0.113.1');
    // Only the well-known prefixes carry IPv4: other addresses under 64:ff9b: keep their /64.
    expect(rateLimitAddress('64:ff9b:1::c000:221')).toBe('64:ff9b:1:0::/64');
    expect(rateLimitAddress('::fffe:c000:280')).toBe('0:0:0:0::/64');
  });
});
