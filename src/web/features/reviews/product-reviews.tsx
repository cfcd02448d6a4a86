import { BadgeCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { nzToday } from '../../../contracts/dates';
import { type OwnReview, type ProductReviews as Reviews, type PublicReview, reviewHideReasonLabels, verifiedSummary, whoCanReview } from '../../../contracts/reviews';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { useQueryClient } from '../../lib/query';
import { useMutation } from '../../lib/query/mutation';
import { useAuth } from '../auth/auth-provider';
import { ReviewForm } from './review-form';
import { Stars } from './stars';
import { deleteReview, useMyReview, useProductReviews } from './reviews-api';

const dayOf = (iso: string) => formatDate(nzToday(new Date(iso)));

function ReviewCard({ review, own = false }: { review: PublicReview | OwnReview; own?: boolean }) {
  return (
    <article className="grid gap-2 border-b border-ink-500/15 py-5 last:border-b-0" aria-label={`Review by ${review.author}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Stars rating={review.rating} />
        {review.title && <h3 className="font-semibold">{review.title}</h3>}
      </div>
      <p className="flex flex-wrap items-center gap-x-2 text-sm text-ink-500">
        <span className="font-medium text-ink-900">{own ? 'You' : review.author}</span>
        <span className="inline-flex items-center gap-1 text-leaf-700">
          <BadgeCheck className="size-4" aria-hidden="true" />
          Verified buyer
        </span>
        <span aria-hidden="true">·</span>
        <span>{dayOf(review.createdAt)}</span>
        {review.editedAt && <span>(edited)</span>}
      </p>
      <p className="whitespace-pre-line leading-relaxed">{review.body}</p>
      {review.photos.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Photos">
          {review.photos.map((photo, index) => (
            <li key={photo.url}>
              <a href={photo.url} target="_blank" rel="noreferrer" className="relative block overflow-hidden rounded-lg ring-1 ring-ink-500/20 hover:ring-mango-600">
                <img src={photo.url} alt={`Photo ${index + 1} from ${own ? 'your' : `${review.author}'s`} review`} className="size-24 object-cover" loading="lazy" />
                {'status' in photo && photo.status !== 'approved' && (
                  <span className="absolute inset-x-0 bottom-0 bg-ink-900/75 px-1 py-0.5 text-center text-xs text-white">{photo.status === 'pending' ? 'Waiting for a check' : 'Not shown'}</span>
                )}
              </a>
            </li>
          ))}
        </ul>
      )}
      {review.reply && (
        <div className="ml-4 rounded-2xl bg-mango-50 p-4 text-sm">
          <p className="font-semibold">Reply from the shop</p>
          <p className="mt-1 whitespace-pre-line">{review.reply.body}</p>
        </div>
      )}
    </article>
  );
}

/** The shopper's own review: its state, and Edit and Delete. */
function OwnReviewPanel({ productId, review }: { productId: number; review: OwnReview }) {
  const [editing, setEditing] = useState(false);
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reviews', productId] });
  const remove = useMutation({
    mutationFn: () => deleteReview(productId),
    onSuccess: () => {
      toast({ title: 'Your review was deleted' });
      void refresh();
    },
    onError: (error) => toast({ title: 'Your review could not be deleted', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  if (editing) {
    return (
      <ReviewForm
        productId={productId}
        editing={review}
        onCancel={() => setEditing(false)}
        onDone={() => {
          setEditing(false);
          toast({ title: 'Your review was updated' });
          void refresh();
        }}
      />
    );
  }
  const waiting = review.photos.filter((photo) => photo.status === 'pending').length;
  return (
    <div className="grid gap-2">
      <h3 className="font-semibold">Your review</h3>
      {review.hiddenReason && (
        <p className="rounded-lg bg-danger-600/10 px-3 py-2 text-sm text-danger-600" role="status">
          We have hidden your review ({reviewHideReasonLabels[review.hiddenReason].toLowerCase()}). Please edit it, or contact us if you think this is a mistake.
        </p>
      )}
      {waiting > 0 && <p className="text-sm text-ink-500">{waiting === 1 ? 'Your photo appears' : 'Your photos appear'} once we have checked {waiting === 1 ? 'it' : 'them'}.</p>}
      <ReviewCard review={review} own />
      <div className="flex gap-3">
        <Button variant="outline" onClick={() => setEditing(true)}>
          Edit review
        </Button>
        <Button
          variant="ghost"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm('Delete your review? This cannot be undone.')) remove.mutate();
          }}>
          Delete
        </Button>
      </div>
    </div>
  );
}

/** Where a shopper writes theirs: asked to sign in, told who may review, or given the form. */
function WriteReview({ productId }: { productId: number }) {
  const { user, checking } = useAuth();
  const mine = useMyReview(productId, Boolean(user));
  const queryClient = useQueryClient();
  const back = `/product/${productId}?review=write#write-review`;
  let content;
  if (!user) {
    content = checking ? (
      <Spinner />
    ) : (
      <p>
        Bought these mangoes?{' '}
        <Link to={`/auth?redirect=${encodeURIComponent(back)}`} className="font-semibold text-mango-700 underline">
          Sign in to write a review
        </Link>
      </p>
    );
  } else if (!mine.data) {
    content = mine.isError ? <p className="text-sm text-ink-500">{errorMessage(mine.error, 'Your review could not be loaded.')}</p> : <Spinner />;
  } else if (mine.data.review) {
    content = <OwnReviewPanel productId={productId} review={mine.data.review} />;
  } else if (mine.data.canReview) {
    content = (
      <>
        <h3 className="font-semibold">Write a review</h3>
        <ReviewForm
          productId={productId}
          onDone={() => {
            toast({ title: 'Thank you for your review' });
            void queryClient.invalidateQueries({ queryKey: ['reviews', productId] });
          }}
        />
      </>
    );
  } else {
    content = <p className="text-sm text-ink-500">{mine.data.reason ?? whoCanReview}</p>;
  }
  return (
    <div id="write-review" className="grid scroll-mt-24 gap-3 rounded-3xl border border-ink-500/15 bg-white p-5">
      {content}
    </div>
  );
}

function Summary({ reviews }: { reviews: Reviews }) {
  if (reviews.average === null) return <p className="text-ink-500">No reviews yet. Reviews come only from shoppers who bought these mangoes.</p>;
  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3">
        <span className="text-4xl font-semibold tabular-nums">{reviews.average.toFixed(1)}</span>
        <span className="grid gap-1">
          <Stars rating={reviews.average} size="size-5" />
          <span className="text-sm text-ink-500">{verifiedSummary(reviews.average, reviews.count)}</span>
        </span>
      </div>
      <dl className="grid max-w-xs gap-1 text-sm">
        {[5, 4, 3, 2, 1].map((stars) => {
          const n = reviews.distribution[stars - 1] ?? 0;
          return (
            <div key={stars} className="grid grid-cols-[4rem_1fr_2rem] items-center gap-2">
              <dt>{stars} {stars === 1 ? 'star' : 'stars'}</dt>
              <dd className="h-2 overflow-hidden rounded-full bg-ink-500/15" aria-hidden="true">
                <span className="block h-full rounded-full bg-mango-500" style={{ width: `${(n / reviews.count) * 100}%` }} />
              </dd>
              <dd className="text-right tabular-nums text-ink-500">{n}</dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function MorePage({ productId, page }: { productId: number; page: number }) {
  const reviews = useProductReviews(productId, page);
  if (!reviews.data) return reviews.isError ? <p className="py-3 text-sm text-danger-600">These reviews could not be loaded. Please try again.</p> : <Spinner />;
  return reviews.data.reviews.map((review) => <ReviewCard key={review.id} review={review} />);
}

/** The product page's reviews: the verified average, how to write one, and the published reviews newest first. */
export function ProductReviews({ productId }: { productId: number }) {
  const first = useProductReviews(productId);
  const [pages, setPages] = useState(1);
  const reviews = first.data;
  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="mt-16 grid scroll-mt-24 gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)] md:gap-12">
      <div className="grid content-start gap-4">
        <h2 id="reviews-heading" className="text-2xl font-semibold">
          Reviews from verified buyers
        </h2>
        {reviews ? <Summary reviews={reviews} /> : first.isError ? <p className="text-ink-500">Reviews could not be loaded.</p> : <Spinner />}
        <p className="text-sm text-ink-500">Only shoppers whose order with this mango was delivered or collected can review it, once. Every review is shown, whatever its stars.</p>
        <WriteReview productId={productId} />
      </div>
      <div>
        {reviews?.reviews.map((review) => <ReviewCard key={review.id} review={review} />)}
        {Array.from({ length: pages - 1 }, (_, index) => (
          <MorePage key={index + 2} productId={productId} page={index + 2} />
        ))}
        {reviews && reviews.count > pages * reviews.pageSize && (
          <Button variant="outline" className="mt-4" onClick={() => setPages((now) => now + 1)}>
            Show more reviews
          </Button>
        )}
      </div>
    </section>
  );
}
