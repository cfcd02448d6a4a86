import { describe, expect, it } from 'vitest';
import { createProductSchema, type Product } from '../../../contracts/product';
import { productHead, withPageHead } from './product-head';

// The create schema fills in the flags every product has, so only what matters here is written.
const product: Product = {
  id: 7,
  ...createProductSchema.parse({
    name: 'Kesar "Gir" <Mangoes>',
    description: 'Saffron-coloured </script><script>alert(1)</script> flesh.',
    price: 59.9,
    imageUrl: '/images/products/kesar.svg',
    category: 'Premium',
    stock: 0,
  }),
  image: null,
};

const indexHtml = '<html><head>\n<title>Premium Mangoes Delivered Fresh</title>\n<meta name="description" content="The shop." />\n</head><body></body></html>';

describe('a product page head', () => {
  it('escapes the product text in the title, the description and the tags', () => {
    const html = withPageHead(indexHtml, productHead(product, 'https://shop.example.nz'));
    expect(html).toContain('<title>Kesar &#34;Gir&#34; &#60;Mangoes&#62; | Premium Mangoes Delivered Fresh</title>');
    expect(html).toContain('<meta property="og:title" content="Kesar &#34;Gir&#34; &#60;Mangoes&#62;" />');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain('<meta property="og:image" content="https://shop.example.nz/images/products/kesar.svg" />');
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it('describes the offer in NZD with two decimals and its availability', () => {
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(productHead(product, 'https://shop.example.nz').tags)?.[1];
    const data = JSON.parse(json!) as { offers: Record<string, string>; description: string };
    expect(data.offers).toMatchObject({ price: '59.90', priceCurrency: 'NZD', availability: 'https://schema.org/OutOfStock', url: 'https://shop.example.nz/product/7' });
    expect(data.description).toBe(product.description);
    const preOrder = productHead({ ...product, isPreOrder: true, expectedAvailabilityDate: '2027-06-10' }, 'https://shop.example.nz').tags;
    expect(preOrder).toContain('"availability":"https://schema.org/PreOrder"');
    expect(preOrder).toContain('"availabilityStarts":"2027-06-10"');
  });

  it('keeps dollar signs in a name or description as they are: nothing of the page is pasted into the head', () => {
    const escaped = (text: string) => text.replace(/&/g, '&#38;').replace(/'/g, '&#39;').replace(/</g, '&#60;').replace(/>/g, '&#62;');
    for (const name of ['Mangoes $` deal', "Mangoes $' deal", 'Mangoes $& deal', 'Mangoes $$ $1 $<x> deal']) {
      const html = withPageHead(indexHtml, productHead({ ...product, name, description: `Now ${name}` }, 'https://shop.example.nz'));
      const title = /<title>(.*?)<\/title>/s.exec(html)?.[1];
      expect(title).toBe(`${escaped(name)} | Premium Mangoes Delivered Fresh`);
      expect(html).toContain(`<meta property="og:title" content="${escaped(name)}" />`);
      expect(html).toContain(`<meta name="description" content="Now ${escaped(name)}" />`);
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html.match(/<head>/g)).toHaveLength(1);
      expect(html.match(/<\/head>/g)).toHaveLength(1);
      expect(html.match(/<body>/g)).toHaveLength(1);
    }
  });
});
