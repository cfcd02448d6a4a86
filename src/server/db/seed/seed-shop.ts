import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import type { Db } from '../client';
import { banners, contentPages, products, promoCodes, siteSettings, stockMovements, testimonials } from '../schema';
import { defaultSettings } from '../../modules/settings/defaults';
import { sampleBankAccountNumber } from '../../../contracts/settings';
import { receiveBatch } from '../../modules/inventory/batches';
import { addDays, nzToday } from '../../../contracts/dates';
import * as catalogue from './catalogue';

/** The seeded stock was picked this many days before the shop is seeded. */
const seedHarvestDaysAgo = 3;

const contentDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'content');

/** Fills an empty database with a shop worth browsing; a database with products is left alone. */
export async function seedIfEmpty(db: Db, now = new Date()): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(products);
  if ((row?.n ?? 0) > 0) return false;
  await seedShop(db, now);
  return true;
}

/** `now`: the shop's clock when it is seeded, which dates the opening stock's harvest. */
export async function seedShop(db: Db, now = new Date()): Promise<void> {
  const pages = await Promise.all(
    catalogue.contentPages.map(async (page) => ({
      slug: page.slug,
      title: page.title,
      body: await fs.readFile(path.join(contentDir, page.file), 'utf8'),
    })),
  );
  await db.transaction(async (tx) => {
    const seeded = await tx
      .insert(products)
      // Every seeded variety is flown in from India, irradiated as MPI's import standard for Indian mangoes asks.
      .values(catalogue.products.map(({ image, ...product }) => ({ ...product, imageUrl: `/images/products/${image}`, originCountry: 'IN', treatment: 'irradiated' as const })))
      .returning({ id: products.id, stock: products.stock, ripeningDays: products.ripeningDays, daysAtBest: products.daysAtBest });
    const opening = seeded.filter((product) => product.stock > 0);
    if (opening.length) {
      await tx.insert(stockMovements).values(opening.map((product) => ({ productId: product.id, change: product.stock, reason: 'opening' as const, note: 'Opening stock' })));
      // The opening stock arrived as one batch each, picked a few days before the shop opened.
      const harvestedOn = addDays(nzToday(now), -seedHarvestDaysAgo);
      for (const product of opening) {
        const bestBefore = addDays(harvestedOn, (product.ripeningDays ?? 8) + (product.daysAtBest ?? 4) + 2);
        await receiveBatch(tx, { productId: product.id, boxes: product.stock, harvestedOn, bestBefore, note: 'Opening stock' }, 'opening');
      }
    }
    await tx.insert(testimonials).values(
      catalogue.testimonials.map((t, index) => ({
        content: t.content,
        author: t.author,
        ratingTenths: t.ratingTenths,
        imageUrl: t.image ? `/images/testimonials/${t.image}` : null,
        sortOrder: index,
      })),
    );
    await tx.insert(banners).values(
      catalogue.farmGallery.map((b, index) => ({ location: 'farm_gallery', title: b.title, imageUrl: `/images/farm/${b.image}`, sortOrder: index })),
    );
    await tx.insert(contentPages).values(pages).onConflictDoNothing();
    const seededSettings = { ...defaultSettings, bankTransfer: { ...defaultSettings.bankTransfer, accountNumber: sampleBankAccountNumber } };
    await tx.insert(siteSettings).values({ id: 1, data: seededSettings }).onConflictDoNothing();
    await tx.insert(promoCodes).values([
      {
        code: 'MANGO10',
        description: '10% off your order of premium mangoes',
        discountType: 'percentage',
        discountValue: 10,
        isActive: true,
      },
      {
        code: 'FIRSTBOX',
        description: '$5 off your first box over $50',
        discountType: 'fixed',
        discountValue: 500,
        minimumOrderCents: 5000,
        maxUsesPerCustomer: 1,
        isActive: true,
      },
    ]);
  });
}
