import { z } from 'zod';
import { requiredText } from './text';

/**
 * Reviews only verified buyers write (decision 0049): a shopper whose order with the product was
 * delivered or collected reviews it once. Text publishes at once; photos wait for staff; staff hide
 * a review only for one of these reasons, never for its rating (the Fair Trading Act).
 */
export const reviewHideReasons = ['abuse', 'personal_information', 'not_about_product'] as const;
export type ReviewHideReason = (typeof reviewHideReasons)[number];

export const reviewHideReasonLabels: Record<ReviewHideReason, string> = {
  abuse: 'Abusive or offensive',
  personal_information: 'Personal information',
  not_about_product: 'Not about the product',
};

/** Up to 3 photos per review, each a JPEG, PNG or WebP within the upload size limit. */
export const reviewPhotoLimits = { min: 0, max: 3 } as const;
export const reviewBodyMax = 2000;
export const reviewTitleMax = 100;
/** Reviews per page of GET /api/products/:id/reviews. */
export const reviewsPageSize = 10;

/** Who may review, as a refusal says it. */
export const whoCanReview = 'Only shoppers whose order with this mango has been delivered or collected can review it.';

/** The review part of POST /api/products/:id/reviews (a multipart field named "review", photos beside it), and the body of an edit. */
export const reviewRequestSchema = z.strictObject({
  rating: z.number({ error: 'Choose a rating from 1 to 5 stars' }).int('Choose a rating from 1 to 5 stars').min(1, 'Choose a rating from 1 to 5 stars').max(5, 'Choose a rating from 1 to 5 stars'),
  title: z
    .string({ error: 'Title must be text' })
    .trim()
    .max(reviewTitleMax, `Title must be at most ${reviewTitleMax} characters`)
    .optional()
    .transform((title) => title || null),
  body: requiredText('Tell other shoppers about the mangoes', 1, reviewBodyMax, `Review must be at most ${reviewBodyMax} characters`),
});
export type ReviewRequest = z.output<typeof reviewRequestSchema>;

/** POST /api/admin/reviews/:id/hide, and a photo's decline. */
export const reviewHideSchema = z.strictObject({
  reason: z.enum(reviewHideReasons, { error: 'Choose why: abusive or offensive, personal information, or not about the product. A review is never hidden for its rating.' }),
});

/** PUT /api/admin/reviews/:id/reply: the shop's public answer. */
export const reviewReplySchema = z.strictObject({
  body: requiredText('Write the reply', 1, 1000, 'Reply must be at most 1000 characters'),
});

export const adminReviewFilters = ['attention', 'hidden', 'all'] as const;
export type AdminReviewFilter = (typeof adminReviewFilters)[number];
export const adminReviewFilterLabels: Record<AdminReviewFilter, string> = { attention: 'To check', hidden: 'Hidden', all: 'All reviews' };

export const adminReviewQuerySchema = z.object({
  filter: z.enum(adminReviewFilters, { error: 'Choose photos to check, hidden or all' }).default('all'),
  page: z.coerce.number({ error: 'Page must be a number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(10_000, 'Page must be at most 10000').default(1),
});

export const reviewsQuerySchema = z.object({
  page: z.coerce.number({ error: 'Page must be a number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(10_000, 'Page must be at most 10000').default(1),
});

export type ReviewPhotoStatus = 'pending' | 'approved' | 'declined';

export interface ReviewReply {
  body: string;
  repliedAt: string;
}

/** A published review as anyone reads it. */
export interface PublicReview {
  id: number;
  rating: number;
  title: string | null;
  body: string;
  /** First name and the initial of the last: "Priya S." */
  author: string;
  createdAt: string;
  /** When its writer last changed it; null when never ("edited" is shown when set). */
  editedAt: string | null;
  /** Approved photos only. */
  photos: { url: string }[];
  reply: ReviewReply | null;
}

/** GET /api/products/:id/reviews */
export interface ProductReviews {
  productId: number;
  /** The average of published reviews, to 1 decimal; null when there are none. */
  average: number | null;
  count: number;
  /** Published reviews by stars: index 0 is 1 star. */
  distribution: [number, number, number, number, number];
  page: number;
  pageSize: number;
  reviews: PublicReview[];
}

/** The writer's own review, with what only they and staff see. */
export interface OwnReview extends Omit<PublicReview, 'photos'> {
  photos: { url: string; status: ReviewPhotoStatus }[];
  hiddenReason: ReviewHideReason | null;
}

/** GET /api/products/:id/reviews/mine */
export interface MyReviewState {
  canReview: boolean;
  /** Why not, when they cannot (and have not). */
  reason: string | null;
  review: OwnReview | null;
}

/** A review as staff moderate it. */
export interface AdminReview extends OwnReview {
  productId: number;
  productName: string;
  orderNumber: string | null;
  customerName: string;
  email: string;
  hiddenAt: string | null;
  photos: { url: string; status: ReviewPhotoStatus; position: number; declinedReason: ReviewHideReason | null }[];
}

export interface AdminReviewList {
  filter: AdminReviewFilter;
  page: number;
  pageSize: number;
  total: number;
  /** Reviews to check (a photo waiting, or hidden and edited since), whatever the filter. */
  toCheck: number;
  reviews: AdminReview[];
}

/** "4.6 from 23 verified buyers" */
export function verifiedSummary(average: number, count: number): string {
  return `${average.toFixed(1)} from ${count} verified buyer${count === 1 ? '' : 's'}`;
}

/** "Priya S.": a reviewer named as the page shows them. */
export function reviewerName(firstName: string, lastName: string): string {
  const first = firstName.trim() || 'A shopper';
  const initial = [...lastName.trim()][0];
  return initial ? `${first} ${initial.toUpperCase()}.` : first;
}
