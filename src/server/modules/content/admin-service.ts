import { and, asc, eq, sql } from 'drizzle-orm';
import {
  type AdminBanner,
  type AdminPage,
  type AdminPageSummary,
  type AdminTestimonial,
  type BannerInput,
  type BannerUpdate,
  farmGalleryLocation,
  type PageInput,
  type PageUpdate,
  protectedPageSlugs,
  type TestimonialInput,
  type TestimonialUpdate,
} from '../../../contracts/content-admin';
import type { Db, Tx } from '../../db/client';
import { banners, contentPages, testimonials } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import type { CacheBus } from '../../lib/cache-bus';
import { cacheTags } from '../../lib/shared-cache';
import { Conflict, NotFound } from '../../lib/errors';

interface Actor {
  userId: number;
  requestId: string;
}

type TestimonialRow = typeof testimonials.$inferSelect;
type BannerRow = typeof banners.$inferSelect;
type PageRow = typeof contentPages.$inferSelect;

const testimonialView = (row: TestimonialRow): AdminTestimonial => ({
  id: row.id,
  content: row.content,
  author: row.author,
  rating: row.ratingTenths / 10,
  imageUrl: row.imageUrl,
  isVisible: row.isVisible,
  updatedAt: row.updatedAt.toISOString(),
});

const bannerView = (row: BannerRow): AdminBanner => ({ id: row.id, imageUrl: row.imageUrl, title: row.title, isActive: row.isActive, updatedAt: row.updatedAt.toISOString() });

const pageSummary = (row: Pick<PageRow, 'slug' | 'title' | 'updatedAt'>): AdminPageSummary => ({
  slug: row.slug,
  title: row.title,
  updatedAt: row.updatedAt.toISOString(),
  isProtected: protectedPageSlugs.includes(row.slug),
});

/** 'testimonial.hide' for a write of only the flag, 'testimonial.update' for anything else. */
function updateAction(entity: string, input: object, flag: string, on: string, off: string): string {
  const value = (input as Record<string, unknown>)[flag];
  return Object.keys(input).length === 1 && typeof value === 'boolean' ? `${entity}.${value ? on : off}` : `${entity}.update`;
}

/**
 * Staff's testimonials, farm-gallery banners and content pages. Every write is audited in its
 * transaction; the storefront reads these tables directly, so changes show on its next request.
 */
export class ContentAdminService {
  constructor(private readonly deps: { db: Db; bus: CacheBus }) {}

  async listTestimonials(): Promise<AdminTestimonial[]> {
    const rows = await this.deps.db.select().from(testimonials).orderBy(asc(testimonials.sortOrder), asc(testimonials.id));
    return rows.map(testimonialView);
  }

  async createTestimonial(input: TestimonialInput, actor: Actor): Promise<AdminTestimonial> {
    const { rating, ...fields } = input;
    return this.write([cacheTags.testimonials], async (tx) => {
      const [next] = await tx.select({ order: sql<number>`coalesce(max(${testimonials.sortOrder}), -1)::int + 1` }).from(testimonials);
      const [created] = await tx
        .insert(testimonials)
        .values({ ...fields, ratingTenths: Math.round(rating * 10), sortOrder: next!.order })
        .returning();
      await recordAudit(tx, { ...audit(actor, 'testimonial.create', 'testimonial', created!.id), after: created });
      return testimonialView(created!);
    });
  }

  async updateTestimonial(id: number, input: TestimonialUpdate, actor: Actor): Promise<AdminTestimonial> {
    const { rating, ...fields } = input;
    return this.write([cacheTags.testimonials], async (tx) => {
      const [before] = await tx.select().from(testimonials).where(eq(testimonials.id, id)).for('update');
      if (!before) throw new NotFound('Testimonial not found');
      const [after] = await tx
        .update(testimonials)
        .set({ ...fields, ...(rating !== undefined && { ratingTenths: Math.round(rating * 10) }), updatedAt: sql`now()` })
        .where(eq(testimonials.id, id))
        .returning();
      await recordAudit(tx, { ...audit(actor, updateAction('testimonial', input, 'isVisible', 'show', 'hide'), 'testimonial', id), before, after });
      return testimonialView(after!);
    });
  }

  async deleteTestimonial(id: number, actor: Actor): Promise<void> {
    await this.write([cacheTags.testimonials], async (tx) => {
      const [before] = await tx.delete(testimonials).where(eq(testimonials.id, id)).returning();
      if (!before) throw new NotFound('Testimonial not found');
      await recordAudit(tx, { ...audit(actor, 'testimonial.delete', 'testimonial', id), before });
    });
  }

  async reorderTestimonials(ids: number[], actor: Actor): Promise<AdminTestimonial[]> {
    await this.write([cacheTags.testimonials], async (tx) => {
      const rows = await tx.select({ id: testimonials.id, sortOrder: testimonials.sortOrder }).from(testimonials).orderBy(asc(testimonials.sortOrder), asc(testimonials.id)).for('update');
      checkSameItems(rows, ids, 'testimonials');
      for (const [index, id] of ids.entries()) {
        await tx.update(testimonials).set({ sortOrder: index }).where(eq(testimonials.id, id));
      }
      await recordAudit(tx, { ...audit(actor, 'testimonial.reorder', 'testimonial', null), before: { ids: rows.map((row) => row.id) }, after: { ids } });
    });
    return this.listTestimonials();
  }

  async listBanners(): Promise<AdminBanner[]> {
    const rows = await this.deps.db.select().from(banners).where(eq(banners.location, farmGalleryLocation)).orderBy(asc(banners.sortOrder), asc(banners.id));
    return rows.map(bannerView);
  }

  async createBanner(input: BannerInput, actor: Actor): Promise<AdminBanner> {
    return this.write([cacheTags.banners], async (tx) => {
      const [next] = await tx
        .select({ order: sql<number>`coalesce(max(${banners.sortOrder}), -1)::int + 1` })
        .from(banners)
        .where(eq(banners.location, farmGalleryLocation));
      const [created] = await tx
        .insert(banners)
        .values({ ...input, location: farmGalleryLocation, sortOrder: next!.order })
        .returning();
      await recordAudit(tx, { ...audit(actor, 'banner.create', 'banner', created!.id), after: created });
      return bannerView(created!);
    });
  }

  async updateBanner(id: number, input: BannerUpdate, actor: Actor): Promise<AdminBanner> {
    return this.write([cacheTags.banners], async (tx) => {
      const [before] = await tx.select().from(banners).where(farmGalleryBanner(id)).for('update');
      if (!before) throw new NotFound('Banner not found');
      const [after] = await tx
        .update(banners)
        .set({ ...input, updatedAt: sql`now()` })
        .where(farmGalleryBanner(id))
        .returning();
      await recordAudit(tx, { ...audit(actor, updateAction('banner', input, 'isActive', 'show', 'hide'), 'banner', id), before, after });
      return bannerView(after!);
    });
  }

  async deleteBanner(id: number, actor: Actor): Promise<void> {
    await this.write([cacheTags.banners], async (tx) => {
      const [before] = await tx.delete(banners).where(farmGalleryBanner(id)).returning();
      if (!before) throw new NotFound('Banner not found');
      await recordAudit(tx, { ...audit(actor, 'banner.delete', 'banner', id), before });
    });
  }

  async reorderBanners(ids: number[], actor: Actor): Promise<AdminBanner[]> {
    await this.write([cacheTags.banners], async (tx) => {
      const rows = await tx
        .select({ id: banners.id })
        .from(banners)
        .where(eq(banners.location, farmGalleryLocation))
        .orderBy(asc(banners.sortOrder), asc(banners.id))
        .for('update');
      checkSameItems(rows, ids, 'banners');
      for (const [index, id] of ids.entries()) {
        await tx.update(banners).set({ sortOrder: index }).where(farmGalleryBanner(id));
      }
      await recordAudit(tx, { ...audit(actor, 'banner.reorder', 'banner', null), before: { ids: rows.map((row) => row.id) }, after: { ids } });
    });
    return this.listBanners();
  }

  async listPages(): Promise<AdminPageSummary[]> {
    const rows = await this.deps.db
      .select({ slug: contentPages.slug, title: contentPages.title, updatedAt: contentPages.updatedAt })
      .from(contentPages)
      .orderBy(asc(contentPages.title));
    return rows.map(pageSummary);
  }

  async findPage(slug: string): Promise<AdminPage> {
    const [row] = await this.deps.db.select().from(contentPages).where(eq(contentPages.slug, slug));
    if (!row) throw new NotFound('Page not found');
    return { ...pageSummary(row), body: row.body };
  }

  async createPage(input: PageInput, actor: Actor): Promise<AdminPage> {
    return this.write([cacheTags.content(input.slug)], async (tx) => {
      const [created] = await tx.insert(contentPages).values(input).onConflictDoNothing().returning();
      if (!created) {
        const message = 'A page with this address already exists';
        throw new Conflict(message, { slug: message });
      }
      await recordAudit(tx, { ...audit(actor, 'content_page.create', 'content_page', created.slug), after: created });
      return { ...pageSummary(created), body: created.body };
    });
  }

  async updatePage(slug: string, input: PageUpdate, actor: Actor): Promise<AdminPage> {
    return this.write([cacheTags.content(slug)], async (tx) => {
      const [before] = await tx.select().from(contentPages).where(eq(contentPages.slug, slug)).for('update');
      if (!before) throw new NotFound('Page not found');
      const [after] = await tx
        .update(contentPages)
        .set({ ...input, updatedAt: sql`now()` })
        .where(eq(contentPages.slug, slug))
        .returning();
      await recordAudit(tx, { ...audit(actor, 'content_page.update', 'content_page', slug), before, after });
      return { ...pageSummary(after!), body: after!.body };
    });
  }

  async deletePage(slug: string, actor: Actor): Promise<void> {
    if (protectedPageSlugs.includes(slug)) throw new Conflict('The shop links to this page, so it cannot be deleted. Edit its text instead.');
    await this.write([cacheTags.content(slug)], async (tx) => {
      const [before] = await tx.delete(contentPages).where(eq(contentPages.slug, slug)).returning();
      if (!before) throw new NotFound('Page not found');
      await recordAudit(tx, { ...audit(actor, 'content_page.delete', 'content_page', slug), before });
    });
  }

  /** One transaction, then the storefront's content caches are dropped, and the shared cache's copies of what it changed. */
  private async write<T>(tags: string[], work: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.deps.db.transaction(work);
    await this.deps.bus.publish('content', tags);
    return result;
  }
}

function audit(actor: Actor, action: string, entity: string, entityId: number | string | null) {
  return { actorUserId: actor.userId, action, entity, entityId, requestId: actor.requestId };
}

function farmGalleryBanner(id: number) {
  return and(eq(banners.id, id), eq(banners.location, farmGalleryLocation));
}

/** A new order must name exactly the items there are now; otherwise someone changed the list meanwhile. */
function checkSameItems(rows: Array<{ id: number }>, ids: number[], what: string): void {
  const current = new Set(rows.map((row) => row.id));
  if (ids.length !== current.size || ids.some((id) => !current.has(id))) {
    throw new Conflict(`The ${what} changed while you were ordering them. Reload the list and try again.`);
  }
}
