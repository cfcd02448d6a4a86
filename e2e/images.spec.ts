import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { adminApi } from './shopper';

let api: APIRequestContext;
let product: { id: number; imageUrl: string };

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL!);
  // A photograph as staff would upload it: wider than any card, so it gets every phone width.
  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 245, g: 158, b: 11 } } }).jpeg().toBuffer();
  const uploaded = await api.post('/api/admin/uploads', { multipart: { file: { name: 'orchard.jpg', mimeType: 'image/jpeg', buffer: photo } } });
  expect(uploaded.status()).toBe(201);
  const { url } = (await uploaded.json()) as { url: string };
  const created = await api.post('/api/products', { data: { name: 'Photographed Mangoes', description: 'A box photographed in the orchard.', price: 35, imageUrl: url, category: 'Classic', stock: 9 } });
  expect(created.status()).toBe(201);
  product = (await created.json()) as { id: number; imageUrl: string };
});

test.afterAll(async () => {
  await api.delete(`/api/products/${product.id}`);
  await api.dispose();
});

test('on a phone, the shop fetches the first card picture first and leaves pictures below the fold for later', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/shop');
  const cards = page.locator('main ul > li article');
  await expect(cards.first()).toBeVisible();
  const pictures = page.locator('main ul > li article > a img');
  const count = await pictures.count();
  expect(count).toBeGreaterThan(5);
  await expect(pictures.first()).toHaveAttribute('fetchpriority', 'high');
  await expect(pictures.first()).toHaveAttribute('loading', 'eager');
  for (let index = 0; index < count; index += 1) {
    const picture = pictures.nth(index);
    await expect(picture).toHaveAttribute('width', /^\d+$/);
    await expect(picture).toHaveAttribute('height', /^\d+$/);
    if (index >= 4) await expect(picture, `card ${index + 1} is below the fold`).toHaveAttribute('loading', 'lazy');
    if (index > 0) await expect(picture).not.toHaveAttribute('fetchpriority', 'high');
  }

  // The uploaded photograph: AVIF and WebP at its widths, sized for the grid, its true size set.
  const card = page.locator('article', { has: page.getByRole('link', { name: 'Photographed Mangoes' }) });
  const photo = card.locator('img');
  await expect(photo).toHaveAttribute('width', '1600');
  await expect(photo).toHaveAttribute('height', '1200');
  await expect(photo).toHaveAttribute('loading', 'lazy');
  const avif = card.locator('source[type="image/avif"]');
  await expect(avif).toHaveAttribute('srcset', `${product.imageUrl}/320.avif 320w, ${product.imageUrl}/640.avif 640w, ${product.imageUrl}/960.avif 960w, ${product.imageUrl}/1280.avif 1280w`);
  await expect(avif).toHaveAttribute('sizes', /calc\(100vw - 32px\)$/);
  await expect(card.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /\/320\.webp 320w/);
  await photo.scrollIntoViewIfNeeded();
  // 358 CSS px at this browser's density of 1: the 640 px AVIF, not the 1600 px original.
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/640\.avif$/);
  await page.screenshot({ path: test.info().outputPath('shop-390.png'), fullPage: false });
});

test('a product page fetches its photograph first, at the size of its column', async ({ page }) => {
  await page.goto(`/product/${product.id}`);
  const main = page.getByRole('img', { name: 'Photographed Mangoes' });
  await expect(main).toHaveAttribute('fetchpriority', 'high');
  await expect(main).toHaveAttribute('loading', 'eager');
  await expect(main).toHaveAttribute('width', '1600');
  await expect(page.locator('article source[type="image/avif"]').first()).toHaveAttribute('sizes', /576px/);
  await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).toMatch(/\.avif$/);
  await page.screenshot({ path: test.info().outputPath('product-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('product-390.png') });
  await page.goto('/shop');
  await expect(page.locator('main ul > li article').first()).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath('shop-1280.png') });
});
