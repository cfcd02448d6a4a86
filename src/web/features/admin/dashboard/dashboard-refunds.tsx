import { useState } from 'react';
import { Link } from 'react-router';
import type { OpenRefundRow } from '../../../../contracts/refunds';
import { Panel } from '../../../components/ui/panel';
import { toast } from '../../../components/ui/toast';
import { Button } from '../../../components/ui/button';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { formatDate, formatPrice } from '../../../lib/format';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ConfirmDialog } from '../shared/confirm-dialog';

export const openRefundsKey = ['admin', 'refunds'] as const;
const fetchOpenRefunds = (signal?: AbortSignal) => apiRequest<{ refunds: OpenRefundRow[] }>('/api/admin/refunds', { signal });
const postPaidOut = (id: number) => apiRequest<OpenRefundRow>(`/api/admin/refunds/${id}/paid-out`, { method: 'POST' });
const postRetry = (id: number) => apiRequest<OpenRefundRow>(`/api/admin/refunds/${id}/retry`, { method: 'POST' });

/**
 * Money the shop still owes back: transfers to pay (with the account the shopper gave) and card
 * refunds Stripe has not taken. Each stays here until it is paid out or Stripe takes it.
 */
export function DashboardRefunds() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: openRefundsKey, queryFn: ({ signal }) => fetchOpenRefunds(signal) });
  const [paying, setPaying] = useState<OpenRefundRow | null>(null);
  const settled = (title: string) => {
    setPaying(null);
    void queryClient.invalidateQueries({ queryKey: ['admin'] });
    toast({ title });
  };
  const failed = (error: Error) => {
    setPaying(null);
    void queryClient.invalidateQueries({ queryKey: openRefundsKey });
    toast({ title: 'The refund was not changed', description: error instanceof ApiError ? error.body?.message : 'Please try again.', variant: 'destructive' });
  };
  const paidOut = useMutation({ mutationFn: (id: number) => postPaidOut(id), onSuccess: (row) => settled(`Refund for ${row.orderNumber} paid out: ${row.customerName || row.customerEmail} has been e-mailed`), onError: failed });
  const retry = useMutation({
    mutationFn: (id: number) => postRetry(id),
    onSuccess: (row) => (row.state === 'refunded' ? settled(`Stripe has taken the refund for ${row.orderNumber}`) : failed(new Error(row.lastError ?? 'Stripe did not take it.'))),
    onError: failed,
  });
  const rows = query.data?.refunds ?? [];
  // Nothing owed: the dashboard stays as it was.
  if (!query.data || rows.length === 0) return null;
  const total = rows.reduce((sum, row) => sum + Math.round(row.amount * 100), 0) / 100;
  return (
    <Panel title="Refunds to pay" className="gap-3">
      <p className="text-sm text-ink-500">
        {rows.length} {rows.length === 1 ? 'refund' : 'refunds'}, {formatPrice(total)} in all. Each stays here until the money has gone back.
      </p>
      <ul className="divide-y divide-mango-50">
        {rows.map((row) => (
          <li key={row.id} className="grid gap-2 py-3 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
            <div className="grid gap-0.5">
              <p>
                <span className="font-semibold tabular-nums">{formatPrice(row.amount)}</span> to {row.customerName || row.customerEmail} ·{' '}
                <Link to={`/admin/orders?order=${row.orderNumber}`} className="font-semibold text-mango-700 hover:underline">
                  {row.orderNumber}
                </Link>{' '}
                <span className="text-ink-500">· {formatDate(row.createdAt)} · {row.reason}</span>
              </p>
              {row.method === 'card' ? (
                <p className="text-danger-600">Card refund not taken by Stripe yet: {row.lastError ?? 'waiting for the next try.'}</p>
              ) : row.payoutAccount ? (
                <p>
                  Pay into <span className="font-mono font-semibold">{row.payoutAccount}</span> ({row.payoutName}), reference {row.orderNumber}
                </p>
              ) : (
                <p className="text-ink-500">Waiting for the shopper’s bank account: the refund e-mail asked for it.</p>
              )}
            </div>
            {row.method === 'card' ? (
              <Button variant="outline" disabled={retry.isPending} onClick={() => retry.mutate(row.id)}>
                {retry.isPending ? 'Sending…' : 'Send to Stripe again'}
              </Button>
            ) : (
              row.payoutAccount && (
                <Button variant="outline" onClick={() => setPaying(row)}>
                  Mark paid out
                </Button>
              )
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={paying !== null}
        title={paying ? `Mark ${formatPrice(paying.amount)} to ${paying.customerName || paying.customerEmail} paid out?` : 'Mark paid out?'}
        description={paying ? `Only once the transfer into ${paying.payoutAccount} has left the shop's account. They are e-mailed that it is on its way, and it then counts as refunded.` : ''}
        confirmLabel="Mark paid out"
        cancelLabel="Not yet"
        busy={paidOut.isPending}
        onConfirm={() => paying && paidOut.mutate(paying.id)}
        onCancel={() => setPaying(null)}
      />
    </Panel>
  );
}
