import type { Treatment } from '../../../../contracts/origin';
import { OriginFields } from '../shared/origin-fields';
import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { type FormEvent, useState } from 'react';
import { cancelWaitingSchema, expectedDateSchema, type PreOrderBook, shipmentBodySchema } from '../../../../contracts/pre-order';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { formatDate } from '../../../lib/format';
import { newIdempotencyKey } from '../../orders/orders-api';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { FormFooter } from '../shared/form-footer';
import { inventoryKey, movementsKey, postCancelWaiting, postExpectedDate, postShipment, preOrderBookKey } from '../shared/admin-api';

/** The Pre-orders panel's forms (pre-order-panel.tsx): a shipment, a late date, cancelling what waits. */

export const boxes = (count: number) => `${count} ${count === 1 ? 'box' : 'boxes'}`;

export function ShipmentForm({ book, onDone }: { book: PreOrderBook; onDone: () => void }) {
  const refresh = useRefresh(book.productId);
  // Origin left as "as the product says": the shipment's batch records the product's.
  const [values, setValues] = useState({ boxes: '', arrivalDate: '', harvestedOn: '', bestBefore: '', grower: '', note: '', originCountry: '', treatment: '' as Treatment | '' });
  // One key per form: a submit retried after a lost answer records the shipment once.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (input: Parameters<typeof postShipment>[1]) => postShipment(book.productId, input),
    onSuccess(result) {
      refresh();
      const given = result.allocated.reduce((sum, entry) => sum + entry.boxes, 0);
      toast({
        title: 'Shipment recorded',
        description: `${boxes(given)} set aside for ${result.allocated.length} ${result.allocated.length === 1 ? 'order' : 'orders'}; ${boxes(result.waiting.boxes)} still waiting; ${boxes(result.stock)} left in stock. Expected dispatch ${formatDate(result.expectedDispatch)}.`,
      });
      onDone();
    },
    onError(error) {
      if (error instanceof ApiError && error.body?.fieldErrors) setErrors(error.body.fieldErrors);
      toast({ title: 'Shipment not recorded', description: messageOf(error), variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = shipmentBodySchema.safeParse({
      boxes: values.boxes.trim() === '' ? undefined : Number(values.boxes),
      arrivalDate: values.arrivalDate || undefined,
      harvestedOn: values.harvestedOn || null,
      bestBefore: values.bestBefore || null,
      grower: values.grower.trim() || null,
      originCountry: values.originCountry || null,
      treatment: values.treatment || null,
      note: values.note.trim() || undefined,
      idempotencyKey,
    });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-xl bg-cream-50 p-4" aria-label="Record a shipment">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Boxes received" inputMode="numeric" value={values.boxes} onChange={(event) => setValues({ ...values, boxes: event.target.value })} error={errors.boxes} autoFocus />
        <TextField label="Arrival date" type="date" value={values.arrivalDate} onChange={(event) => setValues({ ...values, arrivalDate: event.target.value })} error={errors.arrivalDate} />
        <TextField label="Harvested on (optional)" type="date" value={values.harvestedOn} onChange={(event) => setValues({ ...values, harvestedOn: event.target.value })} error={errors.harvestedOn} />
        <TextField label="Best before (optional)" type="date" value={values.bestBefore} onChange={(event) => setValues({ ...values, bestBefore: event.target.value })} error={errors.bestBefore} />
      </div>
      <TextField label="Grower (optional)" value={values.grower} maxLength={120} onChange={(event) => setValues({ ...values, grower: event.target.value })} error={errors.grower} />
      <OriginFields values={values} errors={errors} onChange={(next) => setValues({ ...values, ...next })} />
      <p className="text-sm text-ink-500">The shipment becomes a batch: its best-before decides when its boxes are packed (first expiring, first out).</p>
      <TextField label="Note (optional)" value={values.note} maxLength={300} onChange={(event) => setValues({ ...values, note: event.target.value })} error={errors.note} />
      <FormFooter busy={save.isPending} submitLabel="Record and allocate" onBack={onDone} />
    </form>
  );
}

export function ExpectedDateForm({ book, onDone }: { book: PreOrderBook; onDone: () => void }) {
  const refresh = useRefresh(book.productId);
  const [values, setValues] = useState({ expectedAvailabilityDate: book.expectedAvailabilityDate ?? '', note: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (input: Parameters<typeof postExpectedDate>[1]) => postExpectedDate(book.productId, input),
    onSuccess(result) {
      refresh();
      toast({ title: 'Expected date moved', description: `${result.notified} waiting ${result.notified === 1 ? 'shopper was' : 'shoppers were'} e-mailed the new date.` });
      onDone();
    },
    onError(error) {
      if (error instanceof ApiError && error.body?.fieldErrors) setErrors(error.body.fieldErrors);
      toast({ title: 'Date not moved', description: messageOf(error), variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = expectedDateSchema.safeParse({ expectedAvailabilityDate: values.expectedAvailabilityDate || undefined, note: values.note.trim() || undefined });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-xl bg-cream-50 p-4" aria-label="Move the expected date">
      <p className="text-sm text-ink-500">Every shopper still waiting for {book.name} gets one e-mail with the new date.</p>
      <TextField label="New expected date" type="date" value={values.expectedAvailabilityDate} onChange={(event) => setValues({ ...values, expectedAvailabilityDate: event.target.value })} error={errors.expectedAvailabilityDate} autoFocus />
      <TextField label="Message to shoppers (optional)" value={values.note} maxLength={300} onChange={(event) => setValues({ ...values, note: event.target.value })} error={errors.note} />
      <FormFooter busy={save.isPending} submitLabel="Move date and e-mail" onBack={onDone} />
    </form>
  );
}

export function CancelWaitingForm({ book, onDone }: { book: PreOrderBook; onDone: () => void }) {
  const refresh = useRefresh(book.productId);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirming, setConfirming] = useState(false);
  const waitingOrders = new Set(book.lines.filter((line) => line.state === 'waiting').map((line) => line.orderNumber)).size;
  const cancel = useMutation({
    mutationFn: () => postCancelWaiting(book.productId, reason.trim()),
    onSuccess(result) {
      refresh();
      setConfirming(false);
      const skipped = result.skipped.map((entry) => `${entry.orderNumber}: ${entry.reason}`).join(' ');
      toast({
        title: result.skipped.length ? 'Some waiting pre-orders were not cancelled' : 'Waiting pre-orders cancelled',
        description: `${result.cancelled.length} unpaid cancelled, ${result.refunded.length} paid refunded in full.${skipped ? ` Not cancelled: ${skipped}` : ''}`,
        variant: result.skipped.length ? 'destructive' : undefined,
      });
      onDone();
    },
    onError(error) {
      setConfirming(false);
      if (error instanceof ApiError && error.body?.fieldErrors) setErrors(error.body.fieldErrors);
      toast({ title: 'Nothing cancelled', description: messageOf(error), variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = cancelWaitingSchema.safeParse({ reason });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    setConfirming(true);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-xl bg-cream-50 p-4" aria-label="Cancel the waiting pre-orders">
      <p className="text-sm text-ink-500">
        The {waitingOrders} {waitingOrders === 1 ? 'order' : 'orders'} still waiting for {book.name}: unpaid ones are cancelled, paid ones refunded in full. Each shopper is e-mailed the reason.
      </p>
      <TextField label="Reason" value={reason} maxLength={300} onChange={(event) => setReason(event.target.value)} error={errors.reason} autoFocus />
      <FormFooter busy={cancel.isPending} submitLabel="Cancel waiting pre-orders" onBack={onDone} danger />
      <ConfirmDialog
        open={confirming}
        title={`Cancel ${waitingOrders} waiting ${waitingOrders === 1 ? 'order' : 'orders'}?`}
        description="Paid orders are refunded in full and their boxes go back to stock. This cannot be undone."
        confirmLabel="Cancel and refund"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </form>
  );
}

/** After a change: the book, the inventory table, the stock history and the storefront's products. */
export function useRefresh(productId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: preOrderBookKey(productId) });
    void queryClient.invalidateQueries({ queryKey: inventoryKey });
    void queryClient.invalidateQueries({ queryKey: movementsKey(productId) });
    void queryClient.invalidateQueries({ queryKey: ['products'] });
  };
}

export function messageOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.body?.message : undefined;
}
