import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { drawnAddress, siteOrigin, visitorPageUrl } from './page-address';

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

  it('is one address for the case, escapes, leading zeros and trailing slash a visitor types', () => {
    const key = (url: string) => visitorPageUrl('https://shop.nz', url).href;
    for (const variant of ['/SHOP', '/Shop/', '/%73hop', '/shop/?utm_source=x']) expect(key(variant), variant).toBe('https://shop.nz/shop');
    for (const variant of ['/Product/7/', '/product/007', '/product/000000007']) expect(key(variant), variant).toBe('https://shop.nz/product/7');
    expect(key('/product/10')).toBe('https://shop.nz/product/10');
    expect(key('/product/0')).toBe('https://shop.nz/product/0');
    expect(key('/content/007-recipes')).toBe('https://shop.nz/content/007-recipes');
    // The router draws these as not found, and so does the server: they stay as typed.
    expect(key('//shop')).toBe('https://shop.nz//shop');
    expect(key('/shop//')).toBe('https://shop.nz/shop//');
    expect(key('/')).toBe('https://shop.nz/');
  });

  it('keeps a parameter only on the page that reads it, and only a value that changes the page', () => {
    const key = (url: string) => visitorPageUrl('https://shop.nz', url).href;
    expect(key('/about?category=Premium&sort=name&order=MS-1&signup=true')).toBe('https://shop.nz/about');
    expect(key('/shop?sort=bogus')).toBe('https://shop.nz/shop');
    expect(key('/shop?sort=featured')).toBe('https://shop.nz/shop');
    expect(key('/shop?sort=name&sort=rating')).toBe('https://shop.nz/shop?sort=name');
    expect(key('/auth?signup=yes&redirect=/cart')).toBe('https://shop.nz/auth?redirect=%2Fcart');
    expect(key('/auth?signup=true')).toBe('https://shop.nz/auth?signup=true');
    expect(key('/success?order=MS-10001')).toBe('https://shop.nz/success?order=MS-10001');
    expect(key('/?bypass=please')).toBe('https://shop.nz/');
    expect(key('/shop?bypass=maintenance')).toBe('https://shop.nz/shop?bypass=maintenance');
  });
});

describe('the address a page is drawn for', () => {
  it('is the address itself for every page and anything near as deep', () => {
    for (const url of ['/', '//', '//shop', '/shop?sort=name', '/account/orders/MS-10001', '/a/b/c/d/e', '/product/7.data?_routes=root']) expect(drawnAddress(url)).toBe(url);
  });

  it('keeps the first segments of an address deeper than every page, and its query and .data', () => {
    const deep = `/${'a/'.repeat(8_000)}x`;
    expect(drawnAddress(deep)).toBe('/a/a/a/a/a');
    expect(drawnAddress(`${deep}?q=1`)).toBe('/a/a/a/a/a?q=1');
    expect(drawnAddress(`${deep}.data?_routes=root`)).toBe('/a/a/a/a/a.data?_routes=root');
    expect(drawnAddress('/a/b/c/d/e/f')).toBe('/a/b/c/d/e');
    // Backslashes separate segments as the URL reads them.
    expect(drawnAddress('/a\\b\\c\\d\\e\\f')).toBe('/a/b/c/d/e');
    // Empty segments are not counted, as the router skips them; dot segments are resolved first.
    expect(drawnAddress(`/${'/'.repeat(9_000)}x`)).toBe(`/${'/'.repeat(9_000)}x`);
    expect(drawnAddress('/a//b//c//d//e//f')).toBe('/a//b//c//d//e/');
    expect(drawnAddress('/a/b/c/d/e/f/../../../../../..')).toBe('/a/b/c/d/e/f/../../../../../..');
    expect(drawnAddress(`/${'./'.repeat(9_000)}x`)).toBe(`/${'./'.repeat(9_000)}x`);
  });
});
