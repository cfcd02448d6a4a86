import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../../contracts/dates';
import { statusLabel } from '../../../../contracts/order';
import { recallActionLabels, type RecallOrderRow, type RecallSummary } from '../../../../contracts/recalls';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { useUrlFilters } from '../shared/use-url-filters';
import { fetchRecall, fetchRecalls, postCloseRecall, recallCsvPath, recallKey, recallsKey } from './recalls-api';

const boxes = (count: number) => `${count} ${count === 1 ? 'box' : 'boxes'}`;

/** What a recall did, in a line: "3 orders sent (shoppers e-mailed), 2 re-allocated, 1 put on hold". */
export function recallCounts(recall: Pick<RecallSummary, 'counts'>): string {
  const { reallocated, held, mailed } = recall.counts;
  return `${mailed} ${mailed === 1 ? 'order' : 'orders'} sent (${mailed === 1 ? 'shopper' : 'shoppers'} e-mailed), ${reallocated} re-allocated, ${held} put on hold`;
}

/** Batch recalls: each with the orders it touched and what was done for them, open ones first. */
export function AdminRecalls() {
  const { params, update } = useUrlFilters('batch');
  const opened = Number(params.get('batch'));
  const query = useQuery({ queryKey: recallsKey, queryFn: ({ signal }) => fetchRecalls(signal) });
  if (Number.isInteger(opened) && opened > 0) return <RecallDetail batchId={opened} onBack={() => update({ batch: '' })} />;
  const recalls = query.data?.recalls ?? [];
  return (
    <section className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h1 className="text-4xl font-semibold">Recalls</h1>
        <p className="text-ink-500">A batch found unsafe is recalled from its product’s batches on Inventory. Each recall lists every order with its boxes and what was done.</p>
      </div>
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="rounded-2xl bg-white p-6 text-danger-600">
          {errorMessage(query.error, 'The recalls could not be loaded. Please try again.')}
        </p>
      ) : recalls.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">No batch has been recalled.</p>
      ) : (
        <ul className="grid gap-2">
          {recalls.map((recall) => (
            <li key={recall.id}>
              <button type="button" onClick={() => update({ batch: recall.batchId })} className="grid w-full gap-1 rounded-2xl bg-white p-4 text-left hover:shadow-md">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">
                    {recall.productName}: {recall.batchLabel}
                  </span>
                  <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${recall.closedAt ? 'bg-cream-50 text-ink-500 ring-1 ring-ink-500/30' : 'bg-danger-600 text-white'}`}>{recall.closedAt ? 'Closed' : 'Open'}</span>
                </span>
                <span className="text-sm text-ink-700">{recall.reason}</span>
                <span className="text-sm text-ink-500">
                  Recalled {formatDateTime(recall.recalledAt)} · {recallCounts(recall)}
                  {recall.stillHeld > 0 && ` · ${recall.stillHeld} still on hold`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RecallDetail({ batchId, onBack }: { batchId: number; onBack: () => void }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: recallKey(batchId), queryFn: ({ signal }) => fetchRecall(batchId, signal), retry: false });
  const [closing, setClosing] = useState(false);
  const close = useMutation({
    mutationFn: () => postCloseRecall(batchId),
    onSuccess() {
      setClosing(false);
      void queryClient.invalidateQueries({ queryKey: recallsKey });
      toast({ title: 'Recall closed', description: 'It no longer shows on the dashboard. Its record stays here.' });
    },
    onError(error) {
      setClosing(false);
      toast({ title: 'The recall was not closed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    },
  });
  const back = (
    <div>
      <Button variant="ghost" onClick={onBack}>
        ← All recalls
      </Button>
    </div>
  );
  if (query.isPending) return <Spinner compact />;
  if (query.isError) {
    return (
      <section className="grid gap-4">
        {back}
        <p role="alert" className="rounded-2xl bg-white p-6 text-danger-600">
          {errorMessage(query.error, 'The recall could not be loaded. Please try again.')}
        </p>
      </section>
    );
  }
  const recall = query.data;
  return (
    <section className="grid grid-cols-1 gap-4">
      {back}
      <div className="grid gap-1">
        <h1 className="text-3xl font-semibold sm:text-4xl">
          Recall: {recall.productName}, batch {recall.batchId}
        </h1>
        <p className="text-ink-500">
          {recall.batchLabel}. Recalled {formatDateTime(recall.recalledAt)}
          {recall.recalledBy && ` by ${recall.recalledBy}`}; {boxes(recall.boxesWrittenOff)} in the cool room written off.
          {recall.closedAt && ` Closed ${formatDateTime(recall.closedAt)}.`}
        </p>
      </div>
      <Panel title="What shoppers were told">
        <dl className="grid gap-3 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
          <dt className="font-semibold">Reason</dt>
          <dd>{recall.reason}</dd>
          <dt className="font-semibold">Advice</dt>
          <dd className="whitespace-pre-line">{recall.advice}</dd>
        </dl>
      </Panel>
      <Panel title="Orders">
        <p className="text-sm text-ink-500">{recallCounts(recall)}. An order on hold is released on its page once new boxes are in, or cancelled.</p>
        {recall.orders.length === 0 ? <p className="text-ink-500">No order had boxes of this batch.</p> : <RecallOrders rows={recall.orders} />}
        <div className="flex flex-wrap gap-3">
          <a href={recallCsvPath(recall.batchId)} download className="inline-flex items-center rounded-full px-4 py-2 font-semibold text-mango-700 ring-1 ring-mango-600 hover:bg-mango-50">
            Download as CSV
          </a>
          {!recall.closedAt && (
            <Button variant="outline" onClick={() => setClosing(true)}>
              Close recall
            </Button>
          )}
        </div>
      </Panel>
      <ConfirmDialog
        open={closing}
        title={`Close the recall of batch ${recall.batchId}?`}
        description="Only once every shopper has been dealt with. It leaves the dashboard; this page and its CSV stay."
        confirmLabel="Close recall"
        cancelLabel="Not yet"
        busy={close.isPending}
        onConfirm={() => close.mutate()}
        onCancel={() => setClosing(false)}
      />
    </section>
  );
}

const when = (value: string | null) => (value ? formatDateTime(value) : '—');

function RecallOrders({ rows }: { rows: RecallOrderRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[52rem] text-left text-sm">
        <caption className="sr-only">Orders with boxes of the recalled batch</caption>
        <thead>
          <tr className="border-b border-ink-500/30">
            <th scope="col" className="py-1 pr-4 font-semibold">Order</th>
            <th scope="col" className="py-1 pr-4 font-semibold">Shopper</th>
            <th scope="col" className="py-1 pr-4 text-right font-semibold">Boxes</th>
            <th scope="col" className="py-1 pr-4 font-semibold">Packed</th>
            <th scope="col" className="py-1 pr-4 font-semibold">Dispatched</th>
            <th scope="col" className="py-1 pr-4 font-semibold">Delivered</th>
            <th scope="col" className="py-1 pr-4 font-semibold">Done</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.orderNumber} className="border-b border-mango-50 align-top">
              <th scope="row" className="whitespace-nowrap py-1.5 pr-4 font-medium">
                <Link to={`/admin/orders?order=${row.orderNumber}`} className="font-semibold text-mango-700 hover:underline">
                  {row.orderNumber}
                </Link>
                <span className="block text-xs font-normal text-ink-500">{statusLabel(row.status)}</span>
              </th>
              <td className="py-1.5 pr-4">
                {row.customerName}
                <span className="block text-xs text-ink-500">
                  {row.email}
                  {row.phone && ` · ${row.phone}`}
                </span>
              </td>
              <td className="py-1.5 pr-4 text-right tabular-nums">{row.boxes}</td>
              <td className="py-1.5 pr-4">{when(row.packedAt)}</td>
              <td className="py-1.5 pr-4">{when(row.dispatchedAt)}</td>
              <td className="py-1.5 pr-4">{when(row.deliveredAt)}</td>
              <td className="py-1.5 pr-4">
                {recallActionLabels[row.action]}
                {row.action === 'held' && <span className={`block text-xs ${row.onHold ? 'text-danger-600' : 'text-ink-500'}`}>{row.onHold ? `Short ${boxes(row.boxesShort)}, still on hold` : 'Released or cancelled since'}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
