import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { type FormEvent, useState } from 'react';
import { countryName, type Treatment, treatmentChoices } from '../../../../contracts/origin';
import { OriginFields } from '../shared/origin-fields';
import { batchLabel, type BatchView, type ExpiringBatch, newBatchSchema, type NewBatch, type WriteOff, writeOffReasons, writeOffSchema } from '../../../../contracts/batches';
import type { InventoryRow } from '../../../../contracts/inventory';
import { Button } from '../../../components/ui/button';
import { DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { SelectField } from '../../../components/ui/select-field';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { formatDate } from '../../../lib/format';
import { FormFooter } from '../shared/form-footer';
import { inventoryKey, movementsKey } from '../shared/admin-api';
import { boxes } from './pre-order-forms';
import { type RecallInput, recallSchema } from '../../../../contracts/recalls';
import { Link, useNavigate } from 'react-router';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { fetchRecalls, postRecall, recallsKey } from './recalls-api';

export const batchesKey = (productId: number) => ['admin', 'batches', productId] as const;
export const expiringBatchesKey = ['admin', 'batches', 'expiring'] as const;
const fetchBatches = (productId: number, signal?: AbortSignal) => apiRequest<BatchView[]>(`/api/admin/inventory/${productId}/batches`, { signal });
export const fetchExpiringBatches = (signal?: AbortSignal) => apiRequest<ExpiringBatch[]>('/api/admin/inventory/batches/expiring', { signal });
const postBatch = (productId: number, batch: NewBatch) => apiRequest<BatchView>(`/api/admin/inventory/${productId}/batches`, { method: 'POST', body: batch });
const postWriteOff = (productId: number, batchId: number, writeOff: WriteOff) =>
  apiRequest<BatchView>(`/api/admin/inventory/${productId}/batches/${batchId}/write-offs`, { method: 'POST', body: writeOff });

const writeOffLabels: Record<(typeof writeOffReasons)[number], string> = { spoiled: 'Spoiled', donated: 'Donated' };

/** After a batch changes: the batches, the stock table, its history, the dashboard's list and the shop's products. */
function useRefresh(productId: number) {
  const queryClient = useQueryClient();
  return () => {
    for (const queryKey of [batchesKey(productId), inventoryKey, movementsKey(productId), expiringBatchesKey, recallsKey, ['products']]) void queryClient.invalidateQueries({ queryKey });
  };
}

/**
 * A product's batches in the order packing takes them (first expiring, first out): record one as
 * it arrives, write off boxes that will not sell (decision 0026).
 */
export function BatchPanel({ row }: { row: InventoryRow }) {
  const query = useQuery({ queryKey: batchesKey(row.productId), queryFn: ({ signal }) => fetchBatches(row.productId, signal) });
  const [adding, setAdding] = useState(false);
  const [writingOff, setWritingOff] = useState<BatchView | null>(null);
  const [recalling, setRecalling] = useState<BatchView | null>(null);
  const recalls = useQuery({ queryKey: recallsKey, queryFn: ({ signal }) => fetchRecalls(signal) });
  const recalled = new Set(recalls.data?.recalls.map((recall) => recall.batchId) ?? []);
  const inCoolRoom = query.data?.reduce((sum, batch) => sum + batch.boxesLeft, 0);
  return (
    <div className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">Batches: {row.name}</DialogTitle>
      <DialogDescription className="text-ink-500">
        Packing takes boxes from the batch with the earliest best-before that has them all.
        {inCoolRoom !== undefined &&
          ` ${boxes(inCoolRoom)} in the cool room; ${row.stock} ${row.isPreOrder ? 'left over for the next pre-orders' : 'free to sell'}, the rest on orders waiting to be packed.`}
      </DialogDescription>
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">The batches could not be loaded.</p>
      ) : query.data.length === 0 ? (
        <p className="text-ink-500">No batches yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">Batches of {row.name}, packed from the top</caption>
            <thead>
              <tr className="border-b border-ink-500/30">
                <th scope="col" className="py-1 font-semibold">Batch</th>
                <th scope="col" className="py-1 font-semibold">Harvested</th>
                <th scope="col" className="py-1 font-semibold">Best before</th>
                <th scope="col" className="py-1 font-semibold">Grower</th>
                <th scope="col" className="py-1 font-semibold">Origin</th>
                <th scope="col" className="py-1 text-right font-semibold">Boxes left</th>
                <th scope="col" className="py-1"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {query.data.map((batch) => (
                <tr key={batch.id} className={`border-b border-mango-50 ${batch.boxesLeft === 0 ? 'text-ink-500' : ''}`}>
                  <th scope="row" className="py-1.5 font-medium">
                    {batch.id}
                    {batch.note && <span className="block text-xs font-normal text-ink-500">{batch.note}</span>}
                  </th>
                  <td className="py-1.5">{batch.harvestedOn ? formatDate(batch.harvestedOn) : 'Unknown'}</td>
                  <td className="py-1.5">{batch.bestBefore ? formatDate(batch.bestBefore) : 'Unknown'}</td>
                  <td className="py-1.5">{batch.grower ?? '—'}</td>
                  <td className="py-1.5">
                    {originOf(batch, row)}
                  </td>
                  <td className="py-1.5 text-right tabular-nums">
                    {batch.boxesLeft} of {batch.boxesReceived}
                  </td>
                  <td className="py-1.5 text-right">
                    <span className="inline-flex flex-wrap justify-end gap-1">
                      {batch.boxesLeft > 0 && row.stock > 0 && !recalled.has(batch.id) && (
                        <Button variant="ghost" className="px-3 py-1" onClick={() => { setRecalling(null); setWritingOff(batch); }} aria-label={`Write off boxes of batch ${batch.id}`}>
                          Write off
                        </Button>
                      )}
                      {recalled.has(batch.id) ? (
                        <Link to={`/admin/recalls?batch=${batch.id}`} className="px-3 py-1 font-semibold text-danger-600 hover:underline" aria-label={`Batch ${batch.id} recalled: see the recall`}>
                          Recalled
                        </Link>
                      ) : (
                        recalls.data && (
                          <Button variant="ghost" className="px-3 py-1 text-danger-600" onClick={() => { setWritingOff(null); setRecalling(batch); }} aria-label={`Recall batch ${batch.id}`}>
                            Recall
                          </Button>
                        )
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {recalling ? (
        <RecallForm batch={recalling} productName={row.name} onDone={() => setRecalling(null)} />
      ) : writingOff ? (
        <WriteOffForm productId={row.productId} batch={writingOff} onDone={() => setWritingOff(null)} />
      ) : adding ? (
        <NewBatchForm row={row} onDone={() => setAdding(false)} />
      ) : row.isPreOrder ? (
        <p className="text-sm text-ink-500">A pre-order product's boxes arrive as a shipment: record it under Pre-orders, with its dates, so waiting pre-orders get them first.</p>
      ) : (
        <div>
          <Button onClick={() => setAdding(true)}>Record a batch</Button>
        </div>
      )}
    </div>
  );
}

function NewBatchForm({ row, onDone }: { row: InventoryRow; onDone: () => void }) {
  const refresh = useRefresh(row.productId);
  const [values, setValues] = useState({ boxes: '', harvestedOn: '', bestBefore: '', grower: '', note: '', originCountry: row.originSetting.country ?? '', treatment: (row.originSetting.treatment ?? '') as Treatment | '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (batch: NewBatch) => postBatch(row.productId, batch),
    onSuccess(batch) {
      refresh();
      toast({ title: 'Batch recorded', description: `${batchLabel(batch)}: ${boxes(batch.boxesReceived)} of ${row.name} added to stock.` });
      onDone();
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      toast({ title: 'Batch not recorded', description: body?.message, variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = newBatchSchema.safeParse({
      boxes: values.boxes.trim() === '' ? undefined : Number(values.boxes),
      harvestedOn: values.harvestedOn || undefined,
      bestBefore: values.bestBefore || undefined,
      grower: values.grower.trim() || null,
      note: values.note.trim() || undefined,
      originCountry: values.originCountry || null,
      treatment: values.treatment || null,
    });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  const field = (key: 'boxes' | 'harvestedOn' | 'bestBefore' | 'grower' | 'note') => ({ value: values[key], onChange: (event: { target: { value: string } }) => setValues({ ...values, [key]: event.target.value }), error: errors[key] });
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-xl bg-cream-50 p-4" aria-label="Record a batch">
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField label="Boxes" inputMode="numeric" autoFocus {...field('boxes')} />
        <TextField label="Harvested on" type="date" {...field('harvestedOn')} />
        <TextField label="Best before" type="date" {...field('bestBefore')} />
      </div>
      <TextField label="Grower (optional)" maxLength={120} {...field('grower')} />
      <OriginFields values={values} errors={errors} onChange={(next) => setValues({ ...values, ...next })} />
      <TextField label="Note (optional)" maxLength={300} {...field('note')} />
      <FormFooter busy={save.isPending} submitLabel="Record batch" onBack={onDone} />
    </form>
  );
}

function WriteOffForm({ productId, batch, onDone }: { productId: number; batch: BatchView; onDone: () => void }) {
  const refresh = useRefresh(productId);
  const [values, setValues] = useState({ boxes: '', reason: 'spoiled', note: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (writeOff: WriteOff) => postWriteOff(productId, batch.id, writeOff),
    onSuccess(after, writeOff) {
      refresh();
      toast({ title: 'Boxes written off', description: `${boxes(writeOff.boxes)} of batch ${batch.id} ${writeOff.reason}; ${boxes(after.boxesLeft)} left in it.` });
      onDone();
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      toast({ title: 'Boxes not written off', description: body?.message, variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = writeOffSchema.safeParse({ boxes: values.boxes.trim() === '' ? undefined : Number(values.boxes), reason: values.reason, note: values.note.trim() || undefined });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-xl bg-cream-50 p-4" aria-label={`Write off boxes of batch ${batch.id}`}>
      <p className="text-sm text-ink-500">
        {batchLabel(batch)}: {boxes(batch.boxesLeft)} left. Boxes written off leave the batch and the stock.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Boxes to write off" inputMode="numeric" autoFocus value={values.boxes} onChange={(event) => setValues({ ...values, boxes: event.target.value })} error={errors.boxes} />
        <SelectField label="Reason" options={writeOffReasons} labels={writeOffLabels} value={values.reason} onChange={(event) => setValues({ ...values, reason: event.target.value })} error={errors.reason} />
      </div>
      <TextField label="Note (optional)" maxLength={300} value={values.note} onChange={(event) => setValues({ ...values, note: event.target.value })} error={errors.note} />
      <FormFooter busy={save.isPending} submitLabel="Write off" onBack={onDone} danger />
    </form>
  );
}

/**
 * A batch found unsafe: its boxes left leave the cool room, the orders waiting for them get another
 * batch's or go on hold, and every shopper sent some is e-mailed the reason and the advice.
 */
function RecallForm({ batch, productName, onDone }: { batch: BatchView; productName: string; onDone: () => void }) {
  const refresh = useRefresh(batch.productId);
  const navigate = useNavigate();
  const [values, setValues] = useState({ reason: '', advice: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirming, setConfirming] = useState<RecallInput | null>(null);
  const save = useMutation({
    mutationFn: (input: RecallInput) => postRecall(batch.id, input),
    onSuccess(recall) {
      refresh();
      setConfirming(null);
      toast({ title: `Batch ${batch.id} recalled`, description: `${recall.counts.mailed} sent ${recall.counts.mailed === 1 ? 'order' : 'orders'} e-mailed, ${recall.counts.reallocated} re-allocated, ${recall.counts.held} on hold.` });
      void navigate(`/admin/recalls?batch=${batch.id}`);
    },
    onError(error) {
      setConfirming(null);
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      toast({ title: 'Batch not recalled', description: body?.message ?? 'Please try again.', variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = recallSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    setConfirming(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-xl bg-cream-50 p-4" aria-label={`Recall batch ${batch.id}`}>
      <p className="text-sm text-ink-500">
        {batchLabel(batch)}: {boxes(batch.boxesLeft)} left of {batch.boxesReceived}. A recall cannot be undone: the boxes left are written off, orders waiting for them get
        boxes of another batch or go on hold, and every shopper who was sent boxes of it is e-mailed what you write here.
      </p>
      <TextField label="Reason shoppers will read" maxLength={300} autoFocus value={values.reason} onChange={(event) => setValues({ ...values, reason: event.target.value })} error={errors.reason} />
      <TextAreaField label="Advice to shoppers" hint="What to do with the fruit, and about a refund." maxLength={1000} rows={3} value={values.advice} onChange={(event) => setValues({ ...values, advice: event.target.value })} error={errors.advice} />
      <FormFooter busy={save.isPending} submitLabel="Recall batch" onBack={onDone} danger />
      <ConfirmDialog
        open={confirming !== null}
        title={`Recall batch ${batch.id} of ${productName}?`}
        description={`${boxes(batch.boxesLeft)} in the cool room are written off and the shoppers sent boxes of it are e-mailed at once. This cannot be undone.`}
        confirmLabel="Recall batch"
        cancelLabel="Not now"
        busy={save.isPending}
        onConfirm={() => confirming && save.mutate(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </form>
  );
}

/** A batch's origin as staff read it: its own, or its product's for a batch recorded before origins were kept. */
function originOf(batch: BatchView, row: InventoryRow): string {
  const country = batch.originCountry ?? row.originSetting.country;
  const treatment = batch.treatment ?? row.originSetting.treatment;
  if (!country) return '—';
  return [countryName(country) ?? country, treatment ? treatmentChoices[treatment].toLowerCase() : null].filter(Boolean).join(', ');
}
