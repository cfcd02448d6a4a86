import { describe, expect, it } from 'vitest';
import { createProductSchema, type Product } from '../../../contracts/product';
import { productMeta, productStructuredData } from './product-meta';

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
  preOrdersFull: false,
  nextHarvestedOn: null,
  image: null,
  origin: { countries: ['IN'], label: 'Grown in India' },
  treatment: { kinds: ['irradiated'], label: 'Treated with ionising radiation' },
  originSetting: { country: 'IN', treatment: 'irradiated' },
};

describe('a product page head', () => {
  it('names the product in the title and the link preview, with absolute addresses from the public URL', () => {
    const meta = productMeta(product, 'https://shop.example.nz');
    expect(meta).toContainEqual({ title: 'Kesar "Gir" <Mangoes> | Premium Mangoes Delivered Fresh' });
    expect(meta).toContainEqual({ property: 'og:title', content: 'Kesar "Gir" <Mangoes>' });
    expect(meta).toContainEqual({ property: 'og:image', content: 'https://shop.example.nz/images/products/kesar.svg' });
    expect(meta).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'https://shop.example.nz/product/7' });
    expect(meta).toContainEqual({ property: 'product:price:amount', content: '59.90' });
  });

  it('describes the offer in NZD with two decimals and its availability', () => {
    const data = productStructuredData(product, 'https://shop.example.nz');
    expect(data.offers).toMatchObject({ price: '59.90', priceCurrency: 'NZD', availability: 'https://schema.org/OutOfStock', url: 'https://shop.example.nz/product/7' });
    expect(data.description).toBe(product.description);
    expect(productStructuredData({ ...product, stock: 3 }, 'https://shop.example.nz').offers.availability).toBe('https://schema.org/InStock');
    const preOrder = productStructuredData({ ...product, isPreOrder: true, expectedAvailabilityDate: '2027-06-10' }, 'https://shop.example.nz');
    expect(preOrder.offers).toMatchObject({ availability: 'https://schema.org/PreOrder', availabilityStarts: '2027-06-10' });
  });

  it('names the country of origin of the boxes offered, each of them when they could come from several', () => {
    expect(productStructuredData(product, 'https://shop.example.nz')).toMatchObject({ countryOfOrigin: { '@type': 'Country', identifier: 'IN', name: 'India' } });
    const either = productStructuredData({ ...product, origin: { countries: ['IN', 'PK'], label: 'Grown in India or Pakistan' } }, 'https://shop.example.nz');
    expect(either.countryOfOrigin).toEqual([
      { '@type': 'Country', identifier: 'IN', name: 'India' },
      { '@type': 'Country', identifier: 'PK', name: 'Pakistan' },
    ]);
    expect(productStructuredData({ ...product, origin: { countries: [], label: 'Country of origin not yet recorded' } }, 'https://shop.example.nz')).not.toHaveProperty('countryOfOrigin');
  });

  it('shortens a long description for the preview to 160 characters', () => {
    const long = productMeta({ ...product, description: 'Sweet. '.repeat(60) }, 'https://shop.example.nz');
    const description = long.find((tag) => 'name' in tag && tag.name === 'description') as { content: string };
    expect(description.content.length).toBeLessThanOrEqual(160);
    expect(description.content.endsWith('...')).toBe(true);
  });
});
