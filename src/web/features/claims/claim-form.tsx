import { useMutation } from '../../lib/query/mutation';
import { useId, useState } from 'react';
import { type ClaimableLine, type ClaimOutcome, claimOutcomes, claimPhotoLimits, type ClaimReason, claimReasonLabels, claimReasons, claimRequestSchema, type ClaimView } from '../../../contracts/claims';
import { Button } from '../../components/ui/button';
import { PhotoPicker } from '../../components/ui/photo-picker';
import { TextAreaField } from '../../components/ui/text-area-field';
import { useFormProblems } from '../../lib/form-problems';
import { sendClaim } from './claims-api';

const outcomeText: Record<ClaimOutcome, { title: string; detail: string }> = {
  refund: { title: 'A refund', detail: 'For the boxes with a problem, to the way you paid.' },
  replacement: { title: 'Replacement boxes', detail: 'Fresh boxes sent at no charge, when we have them.' },
};

/** The shopper's report of a problem: which boxes, what went wrong, photos, and what they would like. */
export function ClaimForm({ orderNumber, lines, onSent, onCancel }: { orderNumber: string; lines: ClaimableLine[]; onSent: (claim: ClaimView) => void; onCancel: () => void }) {
  const id = useId();
  const [boxes, setBoxes] = useState<Record<number, number>>({});
  const [reason, setReason] = useState<ClaimReason | ''>('');
  const [description, setDescription] = useState('');
  const [outcome, setOutcome] = useState<ClaimOutcome | ''>('');
  const [photos, setPhotos] = useState<File[]>([]);
  const { errors, setErrors, problem, setProblem, refused, fixed } = useFormProblems('Your claim could not be sent. Please check your connection and try again.');

  const send = useMutation({
    mutationFn: (input: Parameters<typeof sendClaim>[1]) => sendClaim(orderNumber, input, photos),
    onSuccess: onSent,
    onError: refused,
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setProblem(null);
    const input = {
      lines: lines.filter((line) => (boxes[line.lineId] ?? 0) > 0).map((line) => ({ lineId: line.lineId, quantity: boxes[line.lineId]! })),
      reason,
      description,
      outcome,
    };
    const parsed = claimRequestSchema.safeParse(input);
    const found: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    if (photos.length < claimPhotoLimits.min) found.photos = 'Add at least one photo of the mangoes';
    setErrors(found);
    if (!parsed.success || found.photos) {
      setProblem('Please check the highlighted fields.');
      return;
    }
    send.mutate(parsed.data);
  }

  const errorText = (field: string) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="text-sm font-medium text-danger-600" role="alert">
        {errors[field]}
      </p>
    ) : null;
  const choice = 'flex cursor-pointer items-start gap-2 rounded-lg border border-ink-500/30 px-3 py-2.5 has-[:checked]:border-mango-600 has-[:checked]:bg-mango-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-mango-500/40';

  return (
    <form className="grid gap-5" onSubmit={submit} noValidate aria-label="Report a problem">
      <fieldset className="grid gap-2" aria-describedby={errors.lines ? `${id}-lines-error` : undefined}>
        <legend className="mb-1 text-sm font-medium">Which boxes had a problem?</legend>
        {lines.map((line) => (
          <label key={line.lineId} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-ink-500/30 px-3 py-2">
            <span>
              <span className="font-medium">{line.name}</span>
              <span className="block text-sm text-ink-500">
                {line.claimable === 0 ? 'Already claimed' : `${line.quantity} ${line.quantity === 1 ? 'box' : 'boxes'} ordered`}
              </span>
            </span>
            <select
              aria-label={`Boxes of ${line.name} with a problem`}
              disabled={line.claimable === 0}
              className="rounded-lg border border-ink-500/30 bg-white px-3 py-2 text-base"
              value={boxes[line.lineId] ?? 0}
              onChange={(event) => {
                fixed('lines');
                setBoxes((now) => ({ ...now, [line.lineId]: Number(event.target.value) }));
              }}>
              {Array.from({ length: line.claimable + 1 }, (_, count) => (
                <option key={count} value={count}>
                  {count === 0 ? 'None' : `${count} ${count === 1 ? 'box' : 'boxes'}`}
                </option>
              ))}
            </select>
          </label>
        ))}
        {errorText('lines')}
      </fieldset>

      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">What went wrong?</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {claimReasons.map((one) => (
            <label key={one} className={choice}>
              <input type="radio" name={`${id}-reason`} value={one} checked={reason === one} onChange={() => {
                  fixed('reason');
                  setReason(one);
                }} className="mt-1 accent-mango-600" />
              {claimReasonLabels[one]}
            </label>
          ))}
        </div>
        {errorText('reason')}
      </fieldset>

      <TextAreaField
        label="What happened?"
        hint="For example: how many mangoes, what they looked like when the box arrived."
        rows={4}
        maxLength={2000}
        value={description}
        error={errors.description}
        onChange={(event) => {
          fixed('description');
          setDescription(event.target.value);
        }}
      />

      <div className="grid gap-2">
        <label htmlFor={`${id}-photos`} className="text-sm font-medium">
          Photos (1 to {claimPhotoLimits.max})
        </label>
        <p className="text-sm text-ink-500">JPEG, PNG or WebP, up to 5 MB each. A photo of the box and the fruit helps us most.</p>
        <PhotoPicker
          id={`${id}-photos`}
          photos={photos}
          max={claimPhotoLimits.max}
          error={errors.photos}
          onChosen={(chosen, problem) => {
            setErrors((now) => ({ ...now, photos: problem ?? '' }));
            setPhotos(chosen);
          }}
        />
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">What would you like?</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {claimOutcomes.map((one) => (
            <label key={one} className={choice}>
              <input type="radio" name={`${id}-outcome`} value={one} checked={outcome === one} onChange={() => {
                  fixed('outcome');
                  setOutcome(one);
                }} className="mt-1 accent-mango-600" />
              <span>
                <span className="font-medium">{outcomeText[one].title}</span>
                <span className="block text-sm text-ink-500">{outcomeText[one].detail}</span>
              </span>
            </label>
          ))}
        </div>
        {errorText('outcome')}
      </fieldset>

      {problem && (
        <p className="rounded-lg bg-danger-600/10 px-3 py-2 text-sm font-medium text-danger-600" role="alert">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send claim'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
