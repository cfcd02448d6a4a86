import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ArrowLeft } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { type AdminClaimDetail as Detail, type AdminClaimLineView, type ClaimOutcome, claimApprovalSchema, claimDeclineSchema, claimOutcomeLabels, claimOutcomes, claimReasonLabels, claimStatusLabels } from '../../../../contracts/claims';
import { orderStatusLabels } from '../../../../contracts/order';
import { unknownBatchLabel, unknownGrowerLabel } from '../../../../contracts/reports';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { formatPrice } from '../../../lib/format';
import { formatDateTime } from '../../../../contracts/dates';
import { ClaimPhotos } from '../../claims/claim-photos';
import { ClaimStatusBadge } from '../../claims/claim-status-badge';
import { approveClaim, declineClaim, fetchStaffClaim, staffClaimKey, startClaimReview } from './claims-admin-api';

/** A claim for staff: the shopper's report and photos, the order, earlier claims, and the decision. */
export function AdminClaimDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const query = useQuery({ queryKey: staffClaimKey(id), queryFn: ({ signal }) => fetchStaffClaim(id, signal), retry: false });
  const back = (
    <button type="button" onClick={onBack} className="inline-flex items-center gap-1 justify-self-start font-semibold text-mango-700 hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" /> All claims
    </button>
  );
  if (query.isPending) return <Spinner />;
  if (!query.data) {
    return (
      <section className="grid gap-4">
        {back}
        <p className="rounded-2xl bg-white p-6 text-ink-500">{query.error instanceof ApiError && query.error.status === 404 ? `There is no claim #${id}.` : 'This claim could not be loaded.'}</p>
      </section>
    );
  }
  const claim = query.data;
  const open = claim.status === 'new' || claim.status === 'in_review';
  return (
    <section className="grid grid-cols-1 gap-6">
      {back}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-3xl font-semibold">Claim #{claim.id}</h1>
          <p className="text-ink-500">
            Sent {formatDateTime(claim.createdAt)} · {claimReasonLabels[claim.reason]} · wants a {claimOutcomeLabels[claim.outcome].toLowerCase()}
          </p>
        </div>
        <ClaimStatusBadge status={claim.status} />
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="grid gap-6">
          <Panel title="What the shopper reported" level={3} className="gap-3">
            <ul className="divide-y divide-mango-50">
              {claim.lines.map((line) => (
                <li key={line.lineId} className="grid gap-1 py-2">
                  <span className="flex justify-between gap-4">
                    <span>
                      {line.quantity} x {line.name}
                    </span>
                    <span className="tabular-nums text-ink-500">{formatPrice(line.unitPrice)} each</span>
                  </span>
                  <ClaimedBatches line={line} />
                </li>
              ))}
            </ul>
            <p className="whitespace-pre-line">{claim.description}</p>
            <ClaimPhotos urls={claim.photoUrls} size="size-32" />
          </Panel>
          {open ? <Decide claim={claim} /> : <Decided claim={claim} />}
        </div>

        <div className="grid gap-6">
          <Panel title="Order" level={3} className="gap-2 text-sm">
            <Link to={`/admin/orders?order=${claim.order.number}`} className="font-semibold text-mango-700 hover:underline">
              {claim.order.number}
            </Link>
            <p>Status: {orderStatusLabels[claim.order.status]}</p>
            <p>Placed {formatDateTime(claim.order.placedAt)}</p>
            {claim.order.deliveredAt && <p>Delivered {formatDateTime(claim.order.deliveredAt)}</p>}
            <p>
              Total {formatPrice(claim.order.total)} · refunded so far {formatPrice(claim.order.refunded)}
            </p>
          </Panel>
          <Panel title="Customer" level={3} className="gap-2 text-sm">
            <p className="font-medium">{claim.customer.name}</p>
            <a href={`mailto:${claim.customer.email}`} className="break-all text-mango-700 hover:underline">
              {claim.customer.email}
            </a>
            <p className="font-medium">Earlier claims</p>
            {claim.earlierClaims.length === 0 ? (
              <p className="text-ink-500">None: this is their first.</p>
            ) : (
              <ul className="grid gap-1">
                {claim.earlierClaims.map((earlier) => (
                  <li key={earlier.id}>
                    <Link to={`/admin/claims?claim=${earlier.id}`} className="text-mango-700 hover:underline">
                      #{earlier.id}
                    </Link>{' '}
                    · {earlier.orderNumber} · {claimReasonLabels[earlier.reason]} · {claimStatusLabels[earlier.status]} · {formatDateTime(earlier.createdAt)}
                  </li>
                ))}
              </ul>
            )}
          </Panel>
        </div>
      </div>
    </section>
  );
}

/** Where the claimed boxes came from: each batch with its grower, or why it is not known. */
function ClaimedBatches({ line }: { line: AdminClaimLineView }) {
  if (line.batches.length === 0) return <span className="text-sm text-ink-500">{unknownBatchLabel}: packed before batches were recorded</span>;
  return (
    <ul className="grid gap-0.5 text-sm text-ink-500">
      {line.batches.map((batch) => (
        <li key={batch.batchId}>
          {line.batches.length > 1 && `${batch.boxes} from `}
          {batch.label} · {batch.grower ?? unknownGrowerLabel}
        </li>
      ))}
    </ul>
  );
}

function Decided({ claim }: { claim: Detail }) {
  const outcome =
    claim.status === 'declined'
      ? `Declined: ${claim.declineReason ?? ''}`
      : claim.refund !== null
        ? `Approved with a refund of ${formatPrice(claim.refund)}; the boxes are written off.`
        : `Approved with replacement order ${claim.replacementOrderNumber ?? ''}.`;
  return (
    <Panel title="Decision" level={3} className="gap-2">
      <p>{outcome}</p>
      <p className="text-sm text-ink-500">
        {claim.decidedBy ? `By ${claim.decidedBy}, ` : ''}
        {claim.decidedAt ? formatDateTime(claim.decidedAt) : ''}
      </p>
      {claim.replacementOrderNumber && (
        <Link to={`/admin/orders?order=${claim.replacementOrderNumber}`} className="font-semibold text-mango-700 hover:underline">
          Open replacement order {claim.replacementOrderNumber}
        </Link>
      )}
    </Panel>
  );
}

/** Start review, approve (refund of an amount, or a replacement) or decline with a reason. */
function Decide({ claim }: { claim: Detail }) {
  const queryClient = useQueryClient();
  const [resolution, setResolution] = useState<ClaimOutcome>(claim.outcome);
  const [amount, setAmount] = useState(claim.refundLimit.toFixed(2));
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  // A refund moves money: it is asked first, as marking an order paid is.
  const [confirmRefund, setConfirmRefund] = useState<Parameters<typeof approveClaim>[1] | null>(null);
  const done = (next: Detail, title: string) => {
    setConfirmRefund(null);
    queryClient.setQueryData(staffClaimKey(claim.id), next);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'claims'] });
    setErrors({});
    toast({ title, description: 'The shopper has been e-mailed.' });
  };
  const failed = (error: Error) => {
    setConfirmRefund(null);
    const body = error instanceof ApiError ? error.body : null;
    setErrors(body?.fieldErrors ?? {});
    const highlighted = body?.fieldErrors && Object.keys(body.fieldErrors).length > 0;
    toast({ title: 'Not saved', description: highlighted ? 'Please check the highlighted field.' : (body?.message ?? 'Please try again.'), variant: 'destructive' });
    void queryClient.invalidateQueries({ queryKey: staffClaimKey(claim.id) });
  };
  const review = useMutation({ mutationFn: () => startClaimReview(claim.id), onSuccess: (next) => done(next, `Claim #${claim.id} is in review`), onError: failed });
  const approve = useMutation({
    mutationFn: (input: Parameters<typeof approveClaim>[1]) => approveClaim(claim.id, input),
    onSuccess: (next) => done(next, `Claim #${claim.id} approved`),
    onError: failed,
  });
  const decline = useMutation({ mutationFn: () => declineClaim(claim.id, reason), onSuccess: (next) => done(next, `Claim #${claim.id} declined`), onError: failed });
  const busy = review.isPending || approve.isPending || decline.isPending;

  function submitApproval(event: FormEvent) {
    event.preventDefault();
    const parsed = claimApprovalSchema.safeParse(resolution === 'refund' ? { resolution, amount: amount.trim() === '' ? undefined : Number(amount), note } : { resolution, note });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    if (parsed.data.resolution === 'refund') {
      // The server's own limit and words, before anything is asked.
      if (Math.round(parsed.data.amount * 100) > Math.round(claim.refundLimit * 100)) {
        return setErrors({ amount: `The refund can be at most ${formatPrice(claim.refundLimit)}: what was paid for these boxes, less refunds already given on the order.` });
      }
      return setConfirmRefund(parsed.data);
    }
    approve.mutate(parsed.data);
  }
  function submitDecline(event: FormEvent) {
    event.preventDefault();
    const parsed = claimDeclineSchema.safeParse({ reason });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    decline.mutate();
  }
  const short = claim.stockForReplacement.filter((line) => line.inStock < line.wanted);
  const choice = 'flex cursor-pointer items-start gap-2 rounded-lg border border-ink-500/30 px-3 py-2.5 has-[:checked]:border-mango-600 has-[:checked]:bg-mango-50';
  return (
    <>
      {claim.status === 'new' && (
        <div className="flex flex-wrap items-center gap-3 rounded-2xl bg-white p-5">
          <p className="grow text-sm text-ink-500">Taking it into review tells the shopper someone is on it.</p>
          <Button variant="outline" disabled={busy} onClick={() => review.mutate()}>
            {review.isPending ? 'Starting...' : 'Start review'}
          </Button>
        </div>
      )}
      <Panel title="Approve" level={3} className="gap-3">
        <form className="grid gap-3" onSubmit={submitApproval} noValidate>
          <fieldset className="grid gap-2 sm:grid-cols-2">
            <legend className="sr-only">Resolution</legend>
            {claimOutcomes.map((one) => (
              <label key={one} className={choice}>
                <input type="radio" name="resolution" value={one} checked={resolution === one} onChange={() => setResolution(one)} className="mt-1 accent-mango-600" />
                <span>
                  <span className="font-medium">{claimOutcomeLabels[one]}</span>
                  {one === claim.outcome && <span className="block text-sm text-ink-500">What the shopper asked for</span>}
                </span>
              </label>
            ))}
          </fieldset>
          {resolution === 'refund' ? (
            <TextField
              label={`Refund amount (at most ${formatPrice(claim.refundLimit)})`}
              inputMode="decimal"
              value={amount}
              error={errors.amount}
              onChange={(event) => setAmount(event.target.value)}
            />
          ) : (
            <div className="grid gap-1 text-sm">
              <p>A paid order at no charge to the same address; its boxes come from stock now.</p>
              <ul>
                {claim.stockForReplacement.map((line) => (
                  <li key={line.name} className={line.inStock < line.wanted ? 'font-medium text-danger-600' : 'text-ink-500'}>
                    {line.wanted} x {line.name}: {line.inStock} in stock
                  </li>
                ))}
              </ul>
              {short.length > 0 && <p className="text-danger-600">Not enough stock: add stock on Inventory first, or refund instead.</p>}
            </div>
          )}
          <TextAreaField label="Note to the shopper (optional)" rows={2} maxLength={500} value={note} error={errors.note} onChange={(event) => setNote(event.target.value)} />
          <div>
            <Button type="submit" disabled={busy || (resolution === 'replacement' && short.length > 0)}>
              {approve.isPending ? 'Approving...' : resolution === 'refund' ? 'Approve refund' : 'Approve replacement'}
            </Button>
          </div>
        </form>
      </Panel>
      <ConfirmDialog
        open={confirmRefund !== null}
        title={`Refund ${formatPrice(confirmRefund && 'amount' in confirmRefund ? confirmRefund.amount : 0)} to ${claim.customer.name || claim.customer.email}?`}
        description={
          claim.order.refundBy === 'card'
            ? 'It goes back to the card they paid with, through Stripe, as soon as you confirm. This cannot be undone.'
            : 'They paid by bank transfer: they are asked for their bank account, and the refund stays on the dashboard as owed until you mark it paid out.'
        }
        confirmLabel="Approve refund"
        cancelLabel="Not yet"
        busy={approve.isPending}
        onConfirm={() => {
          if (confirmRefund) approve.mutate(confirmRefund);
        }}
        onCancel={() => setConfirmRefund(null)}
      />
      <Panel title="Decline" level={3} className="gap-3">
        <form className="grid gap-3" onSubmit={submitDecline} noValidate>
          <TextAreaField label="Reason (the shopper reads this)" rows={3} maxLength={1000} value={reason} error={errors.reason} onChange={(event) => setReason(event.target.value)} />
          <div>
            <Button type="submit" variant="danger" disabled={busy}>
              {decline.isPending ? 'Declining...' : 'Decline claim'}
            </Button>
          </div>
        </form>
      </Panel>
    </>
  );
}
