import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { siteOrigin, visitorPageUrl } from './page-address';

const requestTo = (host: string) => ({ protocol: 'http', host }) as FastifyRequest;

describe('the origin a page is drawn for', () => {
  it("is PUBLIC_URL's when set, whatever the Host says", () => {
    expect(siteOrigin(requestTo('x?'), 'https://mangoshop.co.nz/')).toBe('https://mangoshop.co.nz');
  });

  it("is the request's own without PUBLIC_URL, only for a Host that is a host name", () => {
    expect(siteOrigin(requestTo('Shop.example.nz:3000'), undefined)).toBe('http://shop.example.nz:3000');
    expect(siteOrigin(requestTo('[::1]:3000'), undefined)).toBe('http://[::1]:3000');
    for (const host of ['x?', 'a/b', 'x#', '', 'a b', 'evil.nz@shop.nz']) expect(siteOrigin(requestTo(host), undefined), host).toBeNull();
  });
});

describe("a visitor's page address", () => {
  it('keeps the path and the parameters pages read, sorted, and drops tracking ones', () => {
    expect(visitorPageUrl('https://shop.nz', '/shop?utm_source=mail&sort=price-asc&category=Premium&fbclid=1').href).toBe('https://shop.nz/shop?category=Premium&sort=price-asc');
    expect(visitorPageUrl('https://shop.nz', '//evil.nz/x').origin).toBe('https://shop.nz');
  });
});
