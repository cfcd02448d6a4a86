import { Star } from 'lucide-react';
import { useId, useState } from 'react';
import { type OwnReview, reviewBodyMax, reviewPhotoLimits, type ReviewRequest, reviewRequestSchema } from '../../../contracts/reviews';
import { Button } from '../../components/ui/button';
import { PhotoPicker } from '../../components/ui/photo-picker';
import { TextAreaField } from '../../components/ui/text-area-field';
import { TextField } from '../../components/ui/text-field';
import { useFormProblems } from '../../lib/form-problems';
import { useMutation } from '../../lib/query/mutation';
import { editReview, sendReview } from './reviews-api';

const ratingWords = ['Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const;

/** Five stars as radio buttons: the shopper's rating, said in words too. */
function StarChoice({ value, onChange, error, name }: { value: number; onChange: (rating: number) => void; error?: string; name: string }) {
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">Your rating</legend>
      <div className="flex items-center gap-1">
        {ratingWords.map((word, index) => {
          const stars = index + 1;
          return (
            <label key={word} className="cursor-pointer rounded-md p-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-mango-500/40">
              <input type="radio" name={name} value={stars} checked={value === stars} onChange={() => onChange(stars)} className="sr-only" />
              <Star className={`size-8 ${stars <= value ? 'fill-mango-500 text-mango-600' : 'text-ink-500/50'}`} aria-hidden="true" />
              <span className="sr-only">
                {stars} {stars === 1 ? 'star' : 'stars'}: {word}
              </span>
            </label>
          );
        })}
        <span className="ml-2 text-sm text-ink-500" aria-hidden="true">
          {value ? ratingWords[value - 1] : 'Choose 1 to 5 stars'}
        </span>
      </div>
      {error && (
        <p id={`${name}-error`} className="text-sm font-medium text-danger-600" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Writing a review (with up to 3 photos), or changing one's own (its words and stars; photos stay
 * as they are). Checked here with the server's rules first; the server's refusal is shown field by field.
 */
export function ReviewForm({ productId, editing, onDone, onCancel }: { productId: number; editing?: OwnReview; onDone: (review: OwnReview) => void; onCancel?: () => void }) {
  const id = useId();
  const [rating, setRating] = useState(editing?.rating ?? 0);
  const [title, setTitle] = useState(editing?.title ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [photos, setPhotos] = useState<File[]>([]);
  const { errors, setErrors, problem, setProblem, refused, fixed } = useFormProblems('Your review could not be sent. Please check your connection and try again.');

  const send = useMutation({
    mutationFn: (input: ReviewRequest) => (editing ? editReview(productId, input) : sendReview(productId, input, photos)),
    onSuccess: onDone,
    onError: refused,
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = reviewRequestSchema.safeParse({ rating, title, body });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      setProblem('Please check the highlighted fields.');
      return;
    }
    setProblem(null);
    send.mutate(parsed.data);
  }

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label={editing ? 'Edit your review' : 'Write a review'}>
      <StarChoice
        name={`${id}-rating`}
        value={rating}
        error={errors.rating}
        onChange={(stars) => {
          fixed('rating');
          setRating(stars);
        }}
      />
      <TextField
        label="Title (optional)"
        value={title}
        error={errors.title}
        onChange={(event) => {
          fixed('title');
          setTitle(event.target.value);
        }}
      />
      <TextAreaField
        label="Your review"
        hint={`How did they taste, and how did they ripen? Up to ${reviewBodyMax} characters; please leave out names, addresses and phone numbers.`}
        rows={5}
        value={body}
        error={errors.body}
        onChange={(event) => {
          fixed('body');
          setBody(event.target.value);
        }}
      />
      {!editing && (
        <div className="grid gap-2">
          <label htmlFor={`${id}-photos`} className="text-sm font-medium">
            Photos (optional, up to {reviewPhotoLimits.max})
          </label>
          <p className="text-sm text-ink-500">JPEG, PNG or WebP, up to 5 MB each. Your words appear at once; photos appear once we have checked them.</p>
          <PhotoPicker
            id={`${id}-photos`}
            photos={photos}
            max={reviewPhotoLimits.max}
            error={errors.photos}
            onChosen={(chosen, photoProblem) => {
              setErrors((now) => ({ ...now, photos: photoProblem ?? '' }));
              setPhotos(chosen);
            }}
          />
        </div>
      )}
      {problem && (
        <p className="rounded-lg bg-danger-600/10 px-3 py-2 text-sm font-medium text-danger-600" role="alert">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? 'Sending...' : editing ? 'Save changes' : 'Post review'}
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
