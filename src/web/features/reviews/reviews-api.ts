import type { MyReviewState, OwnReview, ProductReviews, ReviewRequest } from '../../../contracts/reviews';
import { apiRequest } from '../../lib/api-client';
import { useQuery } from '../../lib/query';

export const productReviewsKey = (productId: number, page = 1) => ['reviews', productId, page] as const;
export const myReviewKey = (productId: number) => ['reviews', productId, 'mine'] as const;

/** The first page of a product's published reviews: in the product page's HTML (and its JSON-LD). */
export const productReviewsQuery = (productId: number) => ({ queryKey: productReviewsKey(productId), path: `/api/products/${productId}/reviews` });

export function useProductReviews(productId: number, page = 1) {
  return useQuery({
    queryKey: productReviewsKey(productId, page),
    queryFn: ({ signal }) => apiRequest<ProductReviews>(`/api/products/${productId}/reviews?page=${page}`, { signal }),
    // The page's own answer is not asked for again when it hydrates.
    staleTime: 60_000,
  });
}

/** The signed-in shopper's review of the product, or whether they may write one. */
export function useMyReview(productId: number, signedIn: boolean) {
  return useQuery({
    queryKey: myReviewKey(productId),
    queryFn: ({ signal }) => apiRequest<MyReviewState>(`/api/products/${productId}/reviews/mine`, { signal }),
    enabled: signedIn,
  });
}

/** A new review goes as a form: its words as a JSON field, the photos as files beside it. */
export function sendReview(productId: number, review: ReviewRequest, photos: File[]): Promise<OwnReview> {
  const form = new FormData();
  form.append('review', JSON.stringify(review));
  for (const photo of photos) form.append('photos', photo, photo.name);
  return apiRequest<OwnReview>(`/api/products/${productId}/reviews`, { method: 'POST', body: form });
}

export const editReview = (productId: number, review: ReviewRequest) => apiRequest<OwnReview>(`/api/products/${productId}/reviews/mine`, { method: 'PUT', body: review });

export const deleteReview = (productId: number) => apiRequest<void>(`/api/products/${productId}/reviews/mine`, { method: 'DELETE' });
