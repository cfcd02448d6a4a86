import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../../contracts/dates';
import {
  type AdminReview,
  type AdminReviewFilter,
  adminReviewFilterLabels,
  adminReviewFilters,
  type AdminReviewList,
  type ReviewHideReason,
  reviewHideReasonLabels,
  reviewHideReasons,
} from '../../../../contracts/reviews';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { toast } from '../../../components/ui/toast';
import { apiRequest, errorMessage } from '../../../lib/api-client';
import { keepPreviousData, useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { Stars } from '../../reviews/stars';
import { FilterPills } from '../shared/filter-pills';
import { Pager } from '../shared/pager';
import { useLastPageWhenPastEnd, useUrlFilters } from '../shared/use-url-filters';

const reviewsKey = (filter: AdminReviewFilter, page: number) => ['admin', 'reviews', filter, page] as const;

/** A reason chosen from the fixed list, then the action: hide a review, or decline a photo. */
function ReasonAction({ label, confirm, onChoose, pending }: { label: string; confirm: string; onChoose: (reason: ReviewHideReason) => void; pending: boolean }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReviewHideReason | ''>('');
  if (!open)
    return (
      <Button variant="outline" onClick={() => setOpen(true)}>
        {label}
      </Button>
    );
  return (
    <div className="flex flex-wrap items-end gap-2">
      <label className="grid gap-1 text-sm">
        <span className="font-medium">Why?</span>
        <select className="rounded-lg border border-ink-500/30 bg-white px-3 py-2 text-base" value={reason} onChange={(event) => setReason(event.target.value as ReviewHideReason)}>
          <option value="">Choose a reason</option>
          {reviewHideReasons.map((one) => (
            <option key={one} value={one}>
              {reviewHideReasonLabels[one]}
            </option>
          ))}
        </select>
      </label>
      <Button variant="danger" disabled={!reason || pending} onClick={() => reason && onChoose(reason)}>
        {confirm}
      </Button>
      <Button variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </div>
  );
}

function ReviewItem({ review }: { review: AdminReview }) {
  const queryClient = useQueryClient();
  const [replying, setReplying] = useState(false);
  const [reply, setReply] = useState(review.reply?.body ?? '');
  const [replyError, setReplyError] = useState<string>();
  const change = useMutation({
    mutationFn: (step: { path: string; method?: 'POST' | 'PUT' | 'DELETE'; body?: unknown; done: string }) => apiRequest<AdminReview>(`/api/admin/reviews/${review.id}${step.path}`, { method: step.method ?? 'POST', body: step.body }),
    onSuccess: (_answer, step) => {
      toast({ title: step.done });
      setReplying(false);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'reviews'] });
    },
    onError: (error, step) => {
      if (step.path === '/reply') setReplyError(errorMessage(error, 'The reply could not be saved.'));
      else toast({ title: 'That did not work', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    },
  });
  return (
    <li className="grid gap-3 rounded-2xl bg-white p-5 shadow-sm" aria-label={`Review by ${review.customerName} of ${review.productName}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <Stars rating={review.rating} />
          <Link to={`/product/${review.productId}#reviews`} className="font-semibold hover:underline">
            {review.productName}
          </Link>
          {review.hiddenReason && <span className="rounded-full bg-danger-600/10 px-2 py-0.5 text-xs font-semibold text-danger-600">Hidden: {reviewHideReasonLabels[review.hiddenReason]}</span>}
        </div>
        <p className="text-sm text-ink-500">
          {formatDateTime(review.createdAt)}
          {review.editedAt && ` · edited ${formatDateTime(review.editedAt)}`}
        </p>
      </div>
      <p className="text-sm text-ink-500">
        {review.customerName} ({review.email}), shown as {review.author}
        {review.orderNumber && (
          <>
            {' · '}
            <Link to={`/admin/orders?order=${review.orderNumber}`} className="text-mango-700 hover:underline">
              {review.orderNumber}
            </Link>
          </>
        )}
      </p>
      {review.title && <p className="font-semibold">{review.title}</p>}
      <p className="whitespace-pre-line">{review.body}</p>
      {review.photos.length > 0 && (
        <ul className="flex flex-wrap gap-4" aria-label="Photos">
          {review.photos.map((photo) => (
            <li key={photo.position} className="grid w-36 gap-2">
              <a href={photo.url} target="_blank" rel="noreferrer" className="block overflow-hidden rounded-lg ring-1 ring-ink-500/20">
                <img src={photo.url} alt={`Photo ${photo.position} of the review`} className="size-36 object-cover" loading="lazy" />
              </a>
              <p className="text-sm">
                {photo.status === 'pending' ? 'Waiting for a check' : photo.status === 'approved' ? 'Shown' : `Declined: ${reviewHideReasonLabels[photo.declinedReason!]}`}
              </p>
              {photo.status !== 'approved' && (
                <Button disabled={change.isPending} onClick={() => change.mutate({ path: `/photos/${photo.position}/approve`, done: 'Photo approved' })}>
                  Approve
                </Button>
              )}
              {photo.status !== 'declined' && (
                <ReasonAction label="Decline" confirm="Decline photo" pending={change.isPending} onChoose={(reason) => change.mutate({ path: `/photos/${photo.position}/decline`, body: { reason }, done: 'Photo declined' })} />
              )}
            </li>
          ))}
        </ul>
      )}
      {review.reply && !replying && (
        <div className="rounded-xl bg-mango-50 p-3 text-sm">
          <p className="font-semibold">Your reply</p>
          <p className="whitespace-pre-line">{review.reply.body}</p>
        </div>
      )}
      {replying ? (
        <div className="grid gap-2">
          <TextAreaField
            label="Reply in public"
            hint="Shown under the review on the product page, up to 1000 characters."
            rows={3}
            value={reply}
            error={replyError}
            onChange={(event) => {
              setReplyError(undefined);
              setReply(event.target.value);
            }}
          />
          <div className="flex gap-2">
            <Button disabled={change.isPending} onClick={() => change.mutate({ path: '/reply', method: 'PUT', body: { body: reply }, done: 'Reply saved' })}>
              Save reply
            </Button>
            <Button variant="ghost" onClick={() => setReplying(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setReplying(true)}>
            {review.reply ? 'Edit reply' : 'Reply'}
          </Button>
          {review.reply && (
            <Button variant="ghost" disabled={change.isPending} onClick={() => change.mutate({ path: '/reply', method: 'DELETE', done: 'Reply removed' })}>
              Remove reply
            </Button>
          )}
          {review.hiddenReason ? (
            <Button variant="outline" disabled={change.isPending} onClick={() => change.mutate({ path: '/show', done: 'Review shown again' })}>
              Show again
            </Button>
          ) : (
            <ReasonAction label="Hide" confirm="Hide review" pending={change.isPending} onChoose={(reason) => change.mutate({ path: '/hide', body: { reason }, done: 'Review hidden' })} />
          )}
        </div>
      )}
    </li>
  );
}

/**
 * Staff's reviews: photos waiting for a check, hidden reviews, or all. A review is hidden only for
 * a listed reason (never its rating); every change is in the audit log.
 */
export function AdminReviews() {
  const { params, page, update } = useUrlFilters('review');
  const asked = params.get('filter') as AdminReviewFilter | null;
  const filter: AdminReviewFilter = asked && adminReviewFilters.includes(asked) ? asked : 'all';
  const query = useQuery({
    queryKey: reviewsKey(filter, page),
    queryFn: ({ signal }) => apiRequest<AdminReviewList>(`/api/admin/reviews?filter=${filter}&page=${page}`, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  useLastPageWhenPastEnd(query.data, page, update);
  return (
    <section className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h1 className="text-4xl font-semibold">Reviews</h1>
        <p className="text-ink-500">
          Verified buyers' reviews publish at once; their photos wait for you, and a hidden review its writer edits comes back to "To check". Hide a review only when it is abusive, gives personal information or is not about the product: never for its rating, as the
          Fair Trading Act asks. A public reply is often better.
        </p>
      </div>
      <FilterPills
        label="Which reviews"
        options={adminReviewFilters}
        labels={adminReviewFilterLabels}
        chosen={filter}
        countOf={(one) => (one === 'attention' && query.data ? query.data.toCheck : null)}
        onChoose={(one) => update({ filter: one === 'all' ? '' : one })}
      />
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p className="rounded-2xl bg-white p-6 text-danger-600" role="alert">
          {errorMessage(query.error, 'The reviews could not be loaded. Please try again.')}
        </p>
      ) : query.data.reviews.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">{filter === 'attention' ? 'Nothing to check: no photo is waiting, and no hidden review was edited since.' : filter === 'hidden' ? 'No reviews are hidden.' : 'No reviews yet.'}</p>
      ) : (
        <>
          <ul className="grid gap-3">
            {query.data.reviews.map((review) => (
              <ReviewItem key={review.id} review={review} />
            ))}
          </ul>
          <Pager total={query.data.total} page={query.data.page} pageSize={query.data.pageSize} noun={['review', 'reviews']} onPage={(next) => update({ page: next })} />
        </>
      )}
    </section>
  );
}
