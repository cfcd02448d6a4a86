import { and, asc, eq } from 'drizzle-orm';
import type { Banner, ContentPage, Testimonial } from '../../../contracts/content';
import type { Db } from '../../db/client';
import { banners, contentPages, testimonials } from '../../db/schema';
import { NotFound } from '../../lib/errors';
import type { ImageSizes } from '../uploads/image-sizes';

export async function listTestimonials(db: Db, imageSizes: ImageSizes): Promise<Testimonial[]> {
  const rows = await db
    .select()
    .from(testimonials)
    .where(eq(testimonials.isVisible, true))
    .orderBy(asc(testimonials.sortOrder), asc(testimonials.id));
  const images = await imageSizes.describe(rows.map((row) => row.imageUrl));
  return rows.map((row) => ({ id: row.id, content: row.content, author: row.author, rating: row.ratingTenths / 10, imageUrl: row.imageUrl, image: (row.imageUrl && images.get(row.imageUrl)) || null }));
}

export async function listBanners(db: Db, imageSizes: ImageSizes, location: string): Promise<Banner[]> {
  const rows = await db
    .select()
    .from(banners)
    .where(and(eq(banners.location, location), eq(banners.isActive, true)))
    .orderBy(asc(banners.sortOrder), asc(banners.id));
  const images = await imageSizes.describe(rows.map((row) => row.imageUrl));
  return rows.map((row) => ({ id: row.id, imageUrl: row.imageUrl, title: row.title, image: images.get(row.imageUrl) ?? null }));
}

export async function findContentPage(db: Db, slug: string): Promise<ContentPage> {
  const [row] = await db.select().from(contentPages).where(eq(contentPages.slug, slug));
  if (!row) throw new NotFound('Page not found');
  return { slug: row.slug, title: row.title, body: row.body, updatedAt: row.updatedAt.toISOString() };
}
