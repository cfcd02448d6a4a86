import { and, asc, count, desc, eq, exists, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  type AdminReview,
  type AdminReviewFilter,
  type AdminReviewList,
  type MyReviewState,
  type OwnReview,
  type ProductReviews,
  type PublicReview,
  type ReviewHideReason,
  reviewerName,
  type ReviewPhotoStatus,
  type ReviewRequest,
  reviewsPageSize,
  whoCanReview,
} from '../../../contracts/reviews';
import type { Db, Tx } from '../../db/client';
import { orderEvents, orderLines, orders, products, reviewPhotos, reviews, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { cacheTags } from '../../lib/shared-cache';
import type { CacheBus } from '../../lib/cache-bus';
import { Conflict, Forbidden, isUniqueViolation, NotFound } from '../../lib/errors';
import type { UserRow } from '../auth/user-view';
import type { CatalogService } from '../catalog/service';

export interface ReviewActor {
  userId: number;
  requestId: string;
}

export interface ReviewDeps {
  db: Db;
  bus: CacheBus;
  catalog: CatalogService;
}

type ReviewRow = typeof reviews.$inferSelect;
interface PhotoRow {
  reviewId: number;
  position: number;
  status: ReviewPhotoStatus;
  declinedReason: ReviewHideReason | null;
}

export const reviewPhotoPath = (reviewId: number, position: number) => `/api/reviews/${reviewId}/photos/${position}`;

const alreadyReviewed = 'You have already reviewed this mango: you can edit your review instead.';
const adminPageSize = 20;

/** The delivered (or collected) order of this shopper's that has the product, newest first; null when none. */
export async function verifyingOrder(db: Db | Tx, userId: number, productId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orderLines.productId, productId),
        exists(
          db
            .select({ one: sql`1` })
            .from(orderEvents)
            .where(and(eq(orderEvents.orderId, orders.id), eq(orderEvents.status, 'delivered'))),
        ),
      ),
    )
    .orderBy(desc(orders.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Verified reviews (decision 0049): written once per shopper and product by a buyer whose order
 * with it was delivered or collected; text published at once, photos once staff approve them;
 * hidden by staff only for a listed reason, never for the rating.
 */
export class ReviewService {
  constructor(private readonly deps: ReviewDeps) {}

  /** The product as a shopper may see it (a hidden one is not found). */
  private async visibleProduct(productId: number, viewer: UserRow | null) {
    return this.deps.catalog.findOne(productId, viewer?.isAdmin ?? false);
  }

  /** The published reviews of a product, newest first, with the average and count of all of them. */
  async published(productId: number, page: number, viewer: UserRow | null): Promise<ProductReviews> {
    await this.visibleProduct(productId, viewer);
    const { db } = this.deps;
    const published = and(eq(reviews.productId, productId), isNull(reviews.hiddenReason));
    const stars = await db
      .select({ rating: reviews.rating, n: count() })
      .from(reviews)
      .where(published)
      .groupBy(reviews.rating);
    const distribution: ProductReviews['distribution'] = [0, 0, 0, 0, 0];
    let total = 0;
    let sum = 0;
    for (const row of stars) {
      distribution[row.rating - 1] = row.n;
      total += row.n;
      sum += row.rating * row.n;
    }
    const rows = await db
      .select({ review: reviews, firstName: users.firstName, lastName: users.lastName })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.userId))
      .where(published)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(reviewsPageSize)
      .offset((page - 1) * reviewsPageSize);
    const photos = await this.photosOf(
      db,
      rows.map((row) => row.review.id),
      true,
    );
    return {
      productId,
      average: total ? Math.round((sum / total) * 10) / 10 : null,
      count: total,
      distribution,
      page,
      pageSize: reviewsPageSize,
      reviews: rows.map((row) => ({ ...publicPart(row.review, reviewerName(row.firstName, row.lastName)), photos: (photos.get(row.review.id) ?? []).map((photo) => ({ url: reviewPhotoPath(photo.reviewId, photo.position) })) })),
    };
  }

  /** What the shopper may do on the product's page: write a review, or see and change theirs. */
  async mine(user: UserRow, productId: number): Promise<MyReviewState> {
    await this.visibleProduct(productId, user);
    const [own] = await this.deps.db
      .select()
      .from(reviews)
      .where(and(eq(reviews.productId, productId), eq(reviews.userId, user.id)));
    if (own) return { canReview: false, reason: alreadyReviewed, review: await this.ownView(this.deps.db, own, user) };
    const order = await verifyingOrder(this.deps.db, user.id, productId);
    return { canReview: order !== null, reason: order === null ? whoCanReview : null, review: null };
  }

  /** Asked before any of the form is read: the shopper may write this review now. Answers the verifying order. */
  async checkCanWrite(user: UserRow, productId: number): Promise<number> {
    await this.visibleProduct(productId, user);
    const orderId = await verifyingOrder(this.deps.db, user.id, productId);
    if (orderId === null) throw new Forbidden(whoCanReview);
    const [own] = await this.deps.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.productId, productId), eq(reviews.userId, user.id)));
    if (own) throw new Conflict(alreadyReviewed);
    return orderId;
  }

  /** Records the review with its photos (already re-encoded, each waiting for staff). */
  async create(user: UserRow, productId: number, request: ReviewRequest, photos: Buffer[], requestId: string): Promise<OwnReview> {
    let created: OwnReview;
    try {
      created = await this.deps.db.transaction(async (tx) => {
        const orderId = await verifyingOrder(tx, user.id, productId);
        if (orderId === null) throw new Forbidden(whoCanReview);
        const [review] = await tx
          .insert(reviews)
          .values({ productId, userId: user.id, orderId, rating: request.rating, title: request.title, body: request.body })
          .returning();
        if (photos.length) await tx.insert(reviewPhotos).values(photos.map((bytes, index) => ({ reviewId: review!.id, position: index + 1, bytes })));
        await recordAudit(tx, {
          actorUserId: user.id,
          action: 'review.created',
          entity: 'review',
          entityId: review!.id,
          after: { productId, rating: request.rating, title: request.title, body: request.body, photos: photos.length },
          requestId,
        });
        return this.ownView(tx, review!, user);
      });
    } catch (error) {
      // Two posts of the same moment: the second finds the first's row.
      if (isUniqueViolation(error, 'reviews_product_user_key')) throw new Conflict(alreadyReviewed);
      throw error;
    }
    await this.deps.bus.publish('reviews', [cacheTags.product(productId)]);
    return created;
  }

  /** The writer changes their rating or words; the review then reads "edited". */
  async edit(user: UserRow, productId: number, request: ReviewRequest, requestId: string): Promise<OwnReview> {
    await this.visibleProduct(productId, user);
    const edited = await this.deps.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(reviews)
        .where(and(eq(reviews.productId, productId), eq(reviews.userId, user.id)))
        .for('update');
      if (!before) throw new NotFound('You have not reviewed this mango yet.');
      const [after] = await tx
        .update(reviews)
        .set({ rating: request.rating, title: request.title, body: request.body, editedAt: sql`now()` })
        .where(eq(reviews.id, before.id))
        .returning();
      await recordAudit(tx, {
        actorUserId: user.id,
        action: 'review.edited',
        entity: 'review',
        entityId: before.id,
        before: { rating: before.rating, title: before.title, body: before.body },
        after: { rating: request.rating, title: request.title, body: request.body },
        requestId,
      });
      return this.ownView(tx, after!, user);
    });
    await this.deps.bus.publish('reviews', [cacheTags.product(productId)]);
    return edited;
  }

  /** The writer takes their review down, photos and all. */
  async remove(user: UserRow, productId: number, requestId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [own] = await tx
        .select({ id: reviews.id, hiddenReason: reviews.hiddenReason })
        .from(reviews)
        .where(and(eq(reviews.productId, productId), eq(reviews.userId, user.id)))
        .for('update');
      if (!own) throw new NotFound('You have not reviewed this mango yet.');
      // Deleted and written again, a hidden review would be published at once: staff decide it.
      if (own.hiddenReason) throw new Conflict('We have hidden this review, so it cannot be deleted and written again. Edit it and we will look at it again, or contact us to have it removed.');
      const [gone] = await tx.delete(reviews).where(eq(reviews.id, own.id)).returning();
      await recordAudit(tx, { actorUserId: user.id, action: 'review.deleted', entity: 'review', entityId: own.id, before: { productId, rating: gone!.rating, title: gone!.title, body: gone!.body }, requestId });
    });
    await this.deps.bus.publish('reviews', [cacheTags.product(productId)]);
  }

  /**
   * A review photo's bytes, and whether anyone may see it (approved, of a published review): those
   * are public; a waiting or declined one only its writer and staff see.
   */
  async photo(viewer: UserRow | null, reviewId: number, position: number): Promise<{ bytes: Buffer; isPublic: boolean; version: string }> {
    const [row] = await this.deps.db
      .select({
        userId: reviews.userId,
        hidden: reviews.hiddenReason,
        productHidden: products.isHidden,
        status: reviewPhotos.status,
        decidedAt: reviewPhotos.decidedAt,
        bytes: reviewPhotos.bytes,
      })
      .from(reviewPhotos)
      .innerJoin(reviews, eq(reviews.id, reviewPhotos.reviewId))
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(and(eq(reviewPhotos.reviewId, reviewId), eq(reviewPhotos.position, position)));
    if (!row) throw new NotFound('Photo not found');
    const isPublic = row.status === 'approved' && row.hidden === null && !row.productHidden;
    if (!isPublic && !(viewer && (viewer.isAdmin || viewer.id === row.userId))) throw new NotFound('Photo not found');
    // Changes with each decision, so a copy kept anywhere is asked about again and dropped once declined.
    return { bytes: row.bytes, isPublic, version: `"${reviewId}-${position}-${row.decidedAt?.getTime() ?? 0}"` };
  }

  /** Staff's list: reviews with photos waiting first when asked, hidden ones, or all; newest first. */
  async adminList(filter: AdminReviewFilter, page: number): Promise<AdminReviewList> {
    const { db } = this.deps;
    const waiting = exists(
      db
        .select({ one: sql`1` })
        .from(reviewPhotos)
        .where(and(eq(reviewPhotos.reviewId, reviews.id), eq(reviewPhotos.status, 'pending'))),
    );
    // A hidden review its writer has edited since: staff look at it again.
    const editedSinceHidden = and(isNotNull(reviews.hiddenAt), sql`${reviews.editedAt} > ${reviews.hiddenAt}`);
    const toCheck = or(waiting, editedSinceHidden);
    const where = filter === 'attention' ? toCheck : filter === 'hidden' ? isNotNull(reviews.hiddenReason) : undefined;
    const [totals] = await db.select({ n: count() }).from(reviews).where(where);
    const [toCheckCount] = await db.select({ n: count() }).from(reviews).where(toCheck);
    const rows = await db
      .select({ id: reviews.id })
      .from(reviews)
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(adminPageSize)
      .offset((page - 1) * adminPageSize);
    return { filter, page, pageSize: adminPageSize, total: totals?.n ?? 0, toCheck: toCheckCount?.n ?? 0, reviews: await this.adminViews(db, rows.map((row) => row.id)) };
  }

  /** Hides a review for a listed reason (never its rating); it stays in the audit log and staff's list. */
  async hide(reviewId: number, reason: ReviewHideReason, actor: ReviewActor): Promise<AdminReview> {
    return this.staffChange(reviewId, actor, 'review.hidden', async (tx, before) => {
      if (before.hiddenReason === reason) return;
      await tx.update(reviews).set({ hiddenReason: reason, hiddenAt: sql`now()`, hiddenBy: actor.userId }).where(eq(reviews.id, reviewId));
      return { before: { hiddenReason: before.hiddenReason }, after: { hiddenReason: reason } };
    });
  }

  /** Publishes a hidden review again. */
  async show(reviewId: number, actor: ReviewActor): Promise<AdminReview> {
    return this.staffChange(reviewId, actor, 'review.shown', async (tx, before) => {
      if (before.hiddenReason === null) return;
      await tx.update(reviews).set({ hiddenReason: null, hiddenAt: null, hiddenBy: null }).where(eq(reviews.id, reviewId));
      return { before: { hiddenReason: before.hiddenReason }, after: { hiddenReason: null } };
    });
  }

  /** The shop's public reply (a second one replaces the first). */
  async reply(reviewId: number, body: string, actor: ReviewActor): Promise<AdminReview> {
    return this.staffChange(reviewId, actor, 'review.replied', async (tx, before) => {
      await tx.update(reviews).set({ replyBody: body, repliedAt: sql`now()`, repliedBy: actor.userId }).where(eq(reviews.id, reviewId));
      return { before: { reply: before.replyBody }, after: { reply: body } };
    });
  }

  async removeReply(reviewId: number, actor: ReviewActor): Promise<AdminReview> {
    return this.staffChange(reviewId, actor, 'review.reply_removed', async (tx, before) => {
      if (before.replyBody === null) return;
      await tx.update(reviews).set({ replyBody: null, repliedAt: null, repliedBy: null }).where(eq(reviews.id, reviewId));
      return { before: { reply: before.replyBody }, after: { reply: null } };
    });
  }

  /** Approves a photo for everyone to see, or declines it for a listed reason. */
  async decidePhoto(reviewId: number, position: number, decision: { approve: true } | { approve: false; reason: ReviewHideReason }, actor: ReviewActor): Promise<AdminReview> {
    return this.staffChange(reviewId, actor, decision.approve ? 'review.photo_approved' : 'review.photo_declined', async (tx) => {
      const [photo] = await tx
        .select({ status: reviewPhotos.status, declinedReason: reviewPhotos.declinedReason })
        .from(reviewPhotos)
        .where(and(eq(reviewPhotos.reviewId, reviewId), eq(reviewPhotos.position, position)));
      if (!photo) throw new NotFound('Photo not found');
      const status = decision.approve ? 'approved' : 'declined';
      const declinedReason = decision.approve ? null : decision.reason;
      if (photo.status === status && photo.declinedReason === declinedReason) return;
      await tx
        .update(reviewPhotos)
        .set({ status, declinedReason, decidedAt: sql`now()`, decidedBy: actor.userId })
        .where(and(eq(reviewPhotos.reviewId, reviewId), eq(reviewPhotos.position, position)));
      return { before: { position, status: photo.status }, after: { position, status, declinedReason } };
    });
  }

  /**
   * One staff change under the review's lock, audited when it changed anything (`change` answers
   * what it changed, or nothing for a change already made); the pages are told after it commits.
   */
  private async staffChange(
    reviewId: number,
    actor: ReviewActor,
    action: string,
    change: (tx: Tx, before: ReviewRow) => Promise<{ before: Record<string, unknown>; after: Record<string, unknown> } | undefined>,
  ): Promise<AdminReview> {
    const result = await this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for('update');
      if (!before) throw new NotFound('Review not found');
      const changed = await change(tx, before);
      if (changed) await recordAudit(tx, { actorUserId: actor.userId, action, entity: 'review', entityId: reviewId, ...changed, requestId: actor.requestId });
      return { view: (await this.adminViews(tx, [reviewId]))[0]!, changed: Boolean(changed), productId: before.productId };
    });
    if (result.changed) await this.deps.bus.publish('reviews', [cacheTags.product(result.productId)]);
    return result.view;
  }

  private async ownView(db: Db | Tx, review: ReviewRow, writer: Pick<UserRow, 'firstName' | 'lastName'>): Promise<OwnReview> {
    const photos = (await this.photosOf(db, [review.id], false)).get(review.id) ?? [];
    return {
      ...publicPart(review, reviewerName(writer.firstName, writer.lastName)),
      photos: photos.map((photo) => ({ url: reviewPhotoPath(review.id, photo.position), status: photo.status })),
      hiddenReason: review.hiddenReason,
    };
  }

  private async adminViews(db: Db | Tx, ids: number[]): Promise<AdminReview[]> {
    if (!ids.length) return [];
    const rows = await db
      .select({ review: reviews, productName: products.name, orderNumber: orders.number, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.userId))
      .innerJoin(products, eq(products.id, reviews.productId))
      .leftJoin(orders, eq(orders.id, reviews.orderId))
      .where(inArray(reviews.id, ids))
      .orderBy(desc(reviews.createdAt), desc(reviews.id));
    const photos = await this.photosOf(db, ids, false);
    return rows.map((row) => ({
      ...publicPart(row.review, reviewerName(row.firstName, row.lastName)),
      hiddenReason: row.review.hiddenReason,
      hiddenAt: row.review.hiddenAt?.toISOString() ?? null,
      productId: row.review.productId,
      productName: row.productName,
      orderNumber: row.orderNumber,
      customerName: `${row.firstName} ${row.lastName}`.trim(),
      email: row.email,
      photos: (photos.get(row.review.id) ?? []).map((photo) => ({ url: reviewPhotoPath(photo.reviewId, photo.position), status: photo.status, position: photo.position, declinedReason: photo.declinedReason })),
    }));
  }

  private async photosOf(db: Db | Tx, reviewIds: number[], approvedOnly: boolean): Promise<Map<number, PhotoRow[]>> {
    const byReview = new Map<number, PhotoRow[]>();
    if (!reviewIds.length) return byReview;
    const rows = await db
      .select({ reviewId: reviewPhotos.reviewId, position: reviewPhotos.position, status: reviewPhotos.status, declinedReason: reviewPhotos.declinedReason })
      .from(reviewPhotos)
      .where(and(inArray(reviewPhotos.reviewId, reviewIds), approvedOnly ? eq(reviewPhotos.status, 'approved') : undefined))
      .orderBy(asc(reviewPhotos.reviewId), asc(reviewPhotos.position));
    for (const row of rows) byReview.set(row.reviewId, [...(byReview.get(row.reviewId) ?? []), row]);
    return byReview;
  }
}

function publicPart(review: ReviewRow, author: string): Omit<PublicReview, 'photos'> {
  return {
    id: review.id,
    rating: review.rating,
    title: review.title,
    body: review.body,
    author,
    createdAt: review.createdAt.toISOString(),
    editedAt: review.editedAt?.toISOString() ?? null,
    reply: review.replyBody !== null && review.repliedAt ? { body: review.replyBody, repliedAt: review.repliedAt.toISOString() } : null,
  };
}
