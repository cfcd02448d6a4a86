import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { type FormEvent, useState } from 'react';
import { adjustmentReasons, type InventoryRow, stockAdjustmentSchema } from '../../../../contracts/inventory';
import type { StockMovementReason } from '../../../../contracts/order';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { SelectField } from '../../../components/ui/select-field';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { formatDateTime } from '../../../../contracts/dates';
import { BatchPanel } from './batch-panel';
import { PreOrderPanel } from './pre-order-panel';
import { fetchInventory, fetchMovements, inventoryKey, movementsKey, postAdjustment, waitlistCsvPath } from '../shared/admin-api';

const reasonLabels: Record<StockMovementReason, string> = {
  order: 'Order',
  cancellation: 'Cancellation',
  refund: 'Refund',
  opening: 'Opening stock',
  received: 'Received',
  spoiled: 'Spoiled',
  donated: 'Donated',
  correction: 'Correction',
  allocation: 'Pre-order allocated',
  recall: 'Recall',
};

/** Issue 5: stock per product with its low-stock flag, pre-order counts, adjustments and history. */
export function AdminInventory() {
  const query = useQuery({ queryKey: inventoryKey, queryFn: ({ signal }) => fetchInventory(signal) });
  const [adjusting, setAdjusting] = useState<InventoryRow | null>(null);
  const [history, setHistory] = useState<InventoryRow | null>(null);
  const [season, setSeason] = useState<InventoryRow | null>(null);
  const [batches, setBatches] = useState<InventoryRow | null>(null);
  return (
    <section className="grid grid-cols-1 gap-4">
      <h1 className="text-4xl font-semibold">Inventory</h1>
      <p className="text-ink-500">Every stock number is the sum of its movements: orders, cancellations, refunds, shipments, batches and the adjustments made here. A pre-order product's stock is what its shipments left after serving its pre-orders. Fruit arrives as batches: record each with its dates, and packing takes the first to expire first.</p>
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">The inventory could not be loaded.</p>
      ) : (
        <div className="overflow-x-auto rounded-2xl bg-white p-4">
          <table className="w-full min-w-[46rem] text-left text-sm">
            <caption className="sr-only">Stock per product</caption>
            <thead>
              <tr className="border-b border-ink-500/30">
                <th scope="col" className="py-2 font-semibold">Product</th>
                <th scope="col" className="py-2 text-right font-semibold">In stock</th>
                <th scope="col" className="py-2 text-right font-semibold">Pre-ordered</th>
                <th scope="col" className="py-2 text-right font-semibold">Waitlist</th>
                <th scope="col" className="relative py-2 font-semibold"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {query.data.map((row) => (
                <tr key={row.productId} className="border-b border-mango-50">
                  <th scope="row" className="py-2 font-medium">
                    {row.name}
                    {row.isHidden && <span className="ml-2 text-ink-500">(hidden)</span>}
                    {row.isLowStock && (
                      <span className="ml-2 rounded-full bg-mango-50 px-2 py-0.5 text-xs font-semibold text-mango-700 ring-1 ring-mango-600/40">{row.stock === 0 ? 'Out of stock' : 'Low stock'}</span>
                    )}
                  </th>
                  <td className="py-2 text-right tabular-nums">{row.stock}</td>
                  <td className="py-2 text-right tabular-nums">{row.isPreOrder ? `${row.preOrdered}${row.preOrderLimit !== null ? ` of ${row.preOrderLimit}` : ''}` : '—'}</td>
                  <td className="py-2 text-right tabular-nums">
                    {row.waitlist.waiting + row.waitlist.notified === 0 ? (
                      '—'
                    ) : (
                      <a href={waitlistCsvPath(row.productId)} download className="font-semibold text-mango-700 hover:underline" aria-label={`${row.waitlist.waiting} waiting for ${row.name}: download the waitlist as CSV`}>
                        {row.waitlist.waiting} waiting
                      </a>
                    )}
                  </td>
                  <td className="py-2">
                    <div className="flex justify-end gap-2">
                      {row.isPreOrder ? (
                        <Button variant="outline" className="px-3 py-1.5" onClick={() => setSeason(row)} aria-label={`Pre-orders of ${row.name}`}>
                          Pre-orders
                        </Button>
                      ) : (
                        <Button variant="outline" className="px-3 py-1.5" onClick={() => setAdjusting(row)} aria-label={`Adjust stock of ${row.name}`}>
                          Adjust
                        </Button>
                      )}
                      <Button variant="outline" className="px-3 py-1.5" onClick={() => setBatches(row)} aria-label={`Batches of ${row.name}`}>
                        Batches
                      </Button>
                      <Button variant="ghost" className="px-3 py-1.5" onClick={() => setHistory(row)} aria-label={`Stock history of ${row.name}`}>
                        History
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={adjusting !== null} onOpenChange={(open) => !open && setAdjusting(null)} title="Adjust stock" titled>
        {adjusting && <AdjustForm row={adjusting} onDone={() => setAdjusting(null)} />}
      </Dialog>
      <Dialog open={season !== null} onOpenChange={(open) => !open && setSeason(null)} title="Pre-orders" titled wide>
        {season && <PreOrderPanel row={season} />}
      </Dialog>
      <Dialog open={batches !== null} onOpenChange={(open) => !open && setBatches(null)} title="Batches" titled wide>
        {/* The row as the table has it now: a batch or a write-off changes its stock while the panel is open. */}
        {batches && <BatchPanel row={query.data?.find((row) => row.productId === batches.productId) ?? batches} />}
      </Dialog>
      <Dialog open={history !== null} onOpenChange={(open) => !open && setHistory(null)} title="Stock history" titled wide>
        {history && <MovementHistory row={history} />}
      </Dialog>
    </section>
  );
}

function AdjustForm({ row, onDone }: { row: InventoryRow; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [change, setChange] = useState('');
  const [reason, setReason] = useState<string>('received');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (adjustment: Parameters<typeof postAdjustment>[1]) => postAdjustment(row.productId, adjustment),
    onSuccess(next) {
      void queryClient.invalidateQueries({ queryKey: inventoryKey });
      void queryClient.invalidateQueries({ queryKey: movementsKey(row.productId) });
      void queryClient.invalidateQueries({ queryKey: ['products'] });
      toast({ title: 'Stock adjusted', description: `${row.name}: ${next.stock} in stock.` });
      onDone();
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      toast({ title: 'Stock not adjusted', description: body?.message, variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = stockAdjustmentSchema.safeParse({ change: change.trim() === '' ? undefined : Number(change), reason, note: note.trim() || undefined });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">Adjust {row.name}</DialogTitle>
      <DialogDescription className="text-ink-500">
        {row.stock} in stock now. Enter boxes in as a positive number and boxes out as a negative one.
      </DialogDescription>
      <TextField label="Change in boxes" inputMode="numeric" value={change} onChange={(event) => setChange(event.target.value)} error={errors.change} autoFocus />
      <p className="text-sm text-ink-500">Boxes received here join the stock as a batch of unknown dates; record them under Batches with their dates instead, so packing takes the first to expire first.</p>
      <SelectField label="Reason" options={adjustmentReasons} labels={reasonLabels} value={reason} onChange={(event) => setReason(event.target.value)} error={errors.reason} />
      <TextField label="Note (optional)" value={note} maxLength={300} onChange={(event) => setNote(event.target.value)} error={errors.note} />
      <div className="flex justify-end gap-3">
        <Button variant="outline" onClick={onDone}>
          Back
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save adjustment'}
        </Button>
      </div>
    </form>
  );
}

function MovementHistory({ row }: { row: InventoryRow }) {
  const query = useQuery({ queryKey: movementsKey(row.productId), queryFn: ({ signal }) => fetchMovements(row.productId, signal) });
  return (
    <div className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">Stock history: {row.name}</DialogTitle>
      <DialogDescription className="text-ink-500">Newest first. The changes add up to today's stock.</DialogDescription>
      {query.isPending ? (
        <Spinner compact />
      ) : !query.data?.length ? (
        <p className="text-ink-500">No stock has moved yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-ink-500/30">
              <th scope="col" className="py-1 font-semibold">When</th>
              <th scope="col" className="py-1 font-semibold">Why</th>
              <th scope="col" className="py-1 text-right font-semibold">Change</th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((movement, index) => (
              <tr key={index} className="border-b border-mango-50 align-top">
                <td className="py-1">{formatDateTime(movement.at)}</td>
                <td className="py-1">
                  {reasonLabels[movement.reason]}
                  {movement.orderNumber ? ` ${movement.orderNumber}` : ''}
                  {movement.note && movement.note !== reasonLabels[movement.reason] ? <span className="block text-ink-500">{movement.note}</span> : null}
                  {movement.actor ? <span className="block text-ink-500">by {movement.actor}</span> : null}
                </td>
                <td className={`py-1 text-right font-semibold tabular-nums ${movement.change < 0 ? 'text-danger-600' : 'text-leaf-700'}`}>
                  {movement.change > 0 ? `+${movement.change}` : movement.change}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
