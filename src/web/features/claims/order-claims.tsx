import { useQuery, useQueryClient } from '../../lib/query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { claimOutcomeLabels, claimReasonLabels, type ClaimView } from '../../../contracts/claims';
import type { OrderStatus } from '../../../contracts/order';
import { Button } from '../../components/ui/button';
import { Panel } from '../../components/ui/panel';
import { toast } from '../../components/ui/toast';
import { formatPrice } from '../../lib/format';
import { formatDateTime } from '../../../contracts/dates';
import { orderQueryKey } from '../orders/orders-api';
import { ClaimForm } from './claim-form';
import { ClaimPhotos } from './claim-photos';
import { ClaimStatusBadge } from './claim-status-badge';
import { fetchOrderClaims, orderClaimsKey } from './claims-api';

/** What was decided on a claim, in the shopper's words. */
function decision(claim: ClaimView) {
  if (claim.status === 'new') return 'We have your claim and will reply within one working day.';
  if (claim.status === 'in_review') return 'Our team is looking at your claim now.';
  if (claim.status === 'declined') return `Declined: ${claim.declineReason ?? ''}`;
  if (claim.refund !== null) {
    if (claim.refundState === 'owed') return `Approved: we owe you ${formatPrice(claim.refund)}, paid by transfer once you add your bank account on this page.`;
    if (claim.refundState === 'pending') return `Approved: ${formatPrice(claim.refund)} is on its way back to your card.`;
    return `Approved: we have refunded ${formatPrice(claim.refund)}.`;
  }
  if (claim.replacementOrderNumber)
    return (
      <>
        Approved: fresh boxes are coming at no charge as order{' '}
        <Link to={`/account/orders/${claim.replacementOrderNumber}`} className="font-semibold text-mango-700 underline">
          {claim.replacementOrderNumber}
        </Link>
        .
      </>
    );
  return 'Approved.';
}

function ClaimCard({ claim }: { claim: ClaimView }) {
  return (
    <li className="grid gap-2 rounded-xl border border-ink-500/20 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold">
          Claim #{claim.id} · {claimReasonLabels[claim.reason]}
        </p>
        <ClaimStatusBadge status={claim.status} />
      </div>
      <p className="text-sm text-ink-500">
        Sent {formatDateTime(claim.createdAt)} · {claim.lines.map((line) => `${line.quantity} x ${line.name}`).join(', ')} · you asked for a {claimOutcomeLabels[claim.outcome].toLowerCase()}
      </p>
      <p className="text-sm">{claim.description}</p>
      <ClaimPhotos urls={claim.photoUrls} size="size-16" />
      <p className="text-sm font-medium">{decision(claim)}</p>
    </li>
  );
}

/**
 * The freshness guarantee on the shopper's order page: their claims and, within the window after
 * delivery, the form to report a problem.
 */
export function OrderClaims({ number, status }: { number: string; status: OrderStatus }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const query = useQuery({ queryKey: orderClaimsKey(number), queryFn: ({ signal }) => fetchOrderClaims(number, signal), retry: false });
  const data = query.data;
  if (!data || ((status === 'pending_payment' || status === 'cancelled') && data.claims.length === 0)) return null;
  const claimable = data.lines.some((line) => line.claimable > 0);
  return (
    <Panel title="Freshness guarantee" level={3} className="gap-3">
      <p className="flex items-start gap-2 text-sm text-ink-500">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-leaf-700" aria-hidden="true" />
        {data.closedReason ??
          `Not delighted with your mangoes? Tell us within ${data.windowHours} hours of delivery, by ${formatDateTime(data.windowClosesAt!)}, and we will make it right.`}
      </p>
      {data.claims.length > 0 && (
        <ul className="grid gap-3" aria-label="Your claims">
          {data.claims.map((claim) => (
            <ClaimCard key={claim.id} claim={claim} />
          ))}
        </ul>
      )}
      {!data.closedReason &&
        (open ? (
          <ClaimForm
            orderNumber={number}
            lines={data.lines}
            onCancel={() => setOpen(false)}
            onSent={(claim) => {
              setOpen(false);
              void queryClient.invalidateQueries({ queryKey: orderClaimsKey(number) });
              void queryClient.invalidateQueries({ queryKey: orderQueryKey(number), exact: true });
              toast({ title: `Claim #${claim.id} sent`, description: 'We have e-mailed you a copy and will reply within one working day.' });
            }}
          />
        ) : claimable ? (
          <div>
            <Button variant="outline" onClick={() => setOpen(true)}>
              Report a problem
            </Button>
          </div>
        ) : (
          <p className="text-sm text-ink-500">
            {data.claims.some((claim) => claim.status === 'new' || claim.status === 'in_review')
              ? 'You can report another problem with these boxes once your open claim is decided.'
              : 'Every box of this order has been claimed already.'}
          </p>
        ))}
    </Panel>
  );
}
