import { useQueryClient } from '../../../lib/query';
import { useState } from 'react';
import { type AdminPromoCode, type PromoCodeFields, type PromoDiscountType, promoCodeSchema } from '../../../../contracts/promo-admin';
import { DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { FormFooter } from '../shared/form-footer';
import { activePromosKey, createPromo, promoCodesKey, updatePromo } from './promo-api';

/** `datetime-local` works in the browser's time; the API takes instants. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** An empty box is "no limit"; anything else goes to the schema as typed, to be judged there. */
const optionalNumber = (text: string) => (text.trim() === '' ? null : Number(text));
const requiredNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
const textOf = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

const typeChoices: Array<{ value: PromoDiscountType; label: string }> = [
  { value: 'percentage', label: 'Percentage off' },
  { value: 'fixed', label: 'Fixed amount off' },
];

/** Create or edit a promo code, checked by the shared schema before sending and by the server after. */
export function PromoForm({ promo, onDone }: { promo: AdminPromoCode | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState(promo?.code ?? '');
  const [description, setDescription] = useState(promo?.description ?? '');
  const [discountType, setDiscountType] = useState<PromoDiscountType>(promo?.discountType ?? 'percentage');
  const [discountValue, setDiscountValue] = useState(textOf(promo?.discountValue));
  const [startsAt, setStartsAt] = useState(toLocalInput(promo?.startsAt ?? null));
  const [endsAt, setEndsAt] = useState(toLocalInput(promo?.endsAt ?? null));
  const [minimumOrder, setMinimumOrder] = useState(textOf(promo?.minimumOrder));
  const [maxUses, setMaxUses] = useState(textOf(promo?.maxUses));
  const [maxUsesPerCustomer, setMaxUsesPerCustomer] = useState(textOf(promo?.maxUsesPerCustomer));
  const [isActive, setIsActive] = useState(promo?.isActive ?? true);

  const form = useSchemaForm(promoCodeSchema, {
    async send(fields: PromoCodeFields) {
      const saved = promo ? await updatePromo(promo.id, fields) : await createPromo(fields);
      void queryClient.invalidateQueries({ queryKey: promoCodesKey });
      void queryClient.invalidateQueries({ queryKey: activePromosKey });
      toast({ title: promo ? 'Promo code saved' : 'Promo code created', description: saved.code });
      onDone();
    },
    onError(error) {
      const message = error instanceof ApiError ? error.body?.message : undefined;
      toast({ title: 'Promo code not saved', description: message ?? 'Please try again.', variant: 'destructive' });
    },
  });
  const values = {
    code,
    description,
    discountType,
    discountValue: requiredNumber(discountValue),
    startsAt: fromLocalInput(startsAt),
    endsAt: fromLocalInput(endsAt),
    minimumOrder: optionalNumber(minimumOrder),
    maxUses: optionalNumber(maxUses),
    maxUsesPerCustomer: optionalNumber(maxUsesPerCustomer),
    isActive,
  };
  const { errors } = form;
  const used = promo?.usedCount ?? 0;

  return (
    <form onSubmit={form.handleSubmit(values)} noValidate className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">{promo ? `Edit ${promo.code}` : 'New promo code'}</DialogTitle>
      <DialogDescription className="text-ink-500">
        {promo && used > 0 ? `Used ${used} time${used === 1 ? '' : 's'} so far.` : 'Shoppers type the code at checkout; it is saved in capitals.'}
      </DialogDescription>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Code" value={code} maxLength={30} autoCapitalize="characters" spellCheck={false} onChange={(event) => setCode(event.target.value)} error={errors.code} autoFocus />
        <TextField label="Description" value={description} maxLength={200} onChange={(event) => setDescription(event.target.value)} error={errors.description} />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1.5 text-sm font-medium">Discount type</legend>
        <div className="flex flex-wrap gap-4">
          {typeChoices.map((choice) => (
            <label key={choice.value} className="inline-flex items-center gap-2 text-sm">
              <input type="radio" name="discountType" className="size-4 accent-mango-600" checked={discountType === choice.value} onChange={() => setDiscountType(choice.value)} />
              {choice.label}
            </label>
          ))}
        </div>
        {errors.discountType && (
          <p role="alert" className="text-sm text-danger-600">
            {errors.discountType}
          </p>
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={discountType === 'percentage' ? 'Percent off (1 to 100)' : 'Amount off ($)'}
          inputMode="decimal"
          value={discountValue}
          onChange={(event) => setDiscountValue(event.target.value)}
          error={errors.discountValue}
        />
        <TextField label="Minimum order ($, optional)" inputMode="decimal" value={minimumOrder} onChange={(event) => setMinimumOrder(event.target.value)} error={errors.minimumOrder} />
        <TextField label="Starts (optional)" type="datetime-local" value={startsAt} onChange={(event) => setStartsAt(event.target.value)} error={errors.startsAt} />
        <TextField label="Ends (optional)" type="datetime-local" value={endsAt} onChange={(event) => setEndsAt(event.target.value)} error={errors.endsAt} />
        <TextField
          label={used > 0 ? `Total uses (optional, at least ${used})` : 'Total uses (optional)'}
          inputMode="numeric"
          value={maxUses}
          onChange={(event) => setMaxUses(event.target.value)}
          error={errors.maxUses}
        />
        <TextField label="Uses per customer (optional)" inputMode="numeric" value={maxUsesPerCustomer} onChange={(event) => setMaxUsesPerCustomer(event.target.value)} error={errors.maxUsesPerCustomer} />
      </div>
      <label className="inline-flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" className="size-4 accent-mango-600" checked={isActive} onChange={(event) => setIsActive(event.target.checked)} />
        Active: shoppers can use it within its dates
      </label>
      <FormFooter busy={form.busy} submitLabel={promo ? 'Save changes' : 'Create promo code'} onBack={onDone} />
    </form>
  );
}
