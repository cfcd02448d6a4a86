import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickShopper, testProduct, testShipping } from '../../testing/order-helpers';
import { createTestShop, type TestShop } from '../../testing/test-app';

/**
 * The shop's mail links only the addresses it builds itself (the order page, tracking, a pay or
 * unsubscribe link): what a shopper typed (a name, an address line, a gift message) stays words,
 * or anyone could send a link from the shop's own address with a fake order.
 */
let shop: TestShop;
let productId: number;
beforeAll(async () => {
  shop = await createTestShop();
  productId = (await testProduct(shop, { name: 'Linked Kesar', stock: 20 })).id;
});
afterAll(async () => shop?.close());

const typed = {
  name: 'Log in at https://evil.example/login',
  street: 'http://phish.example/pay now',
  suburb: 'www.phish.example',
  deliveryInstructions: 'Call https://evil.example/call first',
};

/** Every address an HTML part links to. */
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);

describe('links in order mail', () => {
  it('are never made of what a shopper typed, while the words are still there', async () => {
    const buyer = await quickShopper(shop, 'linker');
    await buyer.add(productId, 1);
    const placed = await buyer.order({ shipping: { ...testShipping, ...typed }, gift: { message: 'Open https://evil.example/gift for a surprise' } });
    expect(placed.statusCode, placed.body).toBe(201);
    const mail = (await shop.mail()).filter((one) => one.to === buyer.user.email).at(-1)!;
    expect(mail.html).toContain('Log in at https://evil.example/login');
    const linked = hrefs(mail.html!);
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.filter((href) => /evil|phish/.test(href))).toEqual([]);
    for (const href of linked) expect(href.startsWith(shop.config.publicUrl ?? `http://localhost:${shop.config.port}`) || href.startsWith('mailto:'), href).toBe(true);
  });
});
