import { useId, useState } from 'react';
import { formatDay } from '../../../contracts/dates';
import { dollarsToCents, formatNzd } from '../../../contracts/money';
import { changeSubscriptionSchema, maxBoxesPerDelivery, subscriberPriceCents, type SubscriptionView } from '../../../contracts/subscriptions';
import { Button } from '../../components/ui/button';
import { QuantityStepper } from '../../components/ui/quantity-stepper';
import { SelectField } from '../../components/ui/select-field';
import { toast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api-client';
import { fieldsInError } from '../../lib/form-errors';
import { useRenderDay } from '../../lib/render-time';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useProducts } from '../catalog/use-products';
import { seasonBoxActions, useKeepSeasonBox } from './season-box-api';
import { offersSeasonBox } from './season-box-terms';

type Scope = 'next' | 'all';

/** The varieties a season box can change to: those offered as season boxes now, and its own. */
function useChoices(view: SubscriptionView): Array<{ id: number; name: string; unitCents: number }> {
  const products = useProducts().data ?? [];
  const today = useRenderDay();
  const own = { id: view.product.id, name: view.product.name, unitCents: view.unitPriceCents };
  const others = products
    .filter((product) => product.id !== own.id && offersSeasonBox(product, today))
    .map((product) => ({ id: product.id, name: product.name, unitCents: subscriberPriceCents(dollarsToCents(product.price), product.subscriberDiscountPercent) }));
  return [own, ...others];
}

/** Change the variety or the number of boxes, for the next box only or for every box from the next one. */
export function ChangeBoxForm({ view, onDone }: { view: SubscriptionView; onDone: () => void }) {
  const id = useId();
  const keep = useKeepSeasonBox();
  const choices = useChoices(view);
  const next = view.coming.find((delivery) => delivery.open && delivery.state === 'scheduled');
  const [productId, setProductId] = useState(view.product.id);
  const [quantity, setQuantity] = useState(view.quantity);
  const [scope, setScope] = useState<Scope>('all');
  const [problem, setProblem] = useState<string | null>(null);
  const values = { productId, quantity, scope };
  const { errors, busy, handleSubmit } = useSchemaForm(changeSubscriptionSchema, {
    async send(change) {
      setProblem(null);
      keep(await seasonBoxActions.change(view.id, change));
      toast({ title: scope === 'next' ? 'Your next box is changed' : 'Your season box is changed' });
      onDone();
    },
    onError(error) {
      const fields = error instanceof ApiError ? (error.body?.fieldErrors ?? {}) : {};
      setProblem(fieldsInError(fields).length ? null : errorMessage(error, 'Your season box could not be changed. Please check your connection and try again.'));
    },
  });
  const scopes: Array<{ value: Scope; label: string; help: string; disabled?: boolean }> = [
    { value: 'next', label: 'Next box only', help: next ? formatDay(next.date) : 'No box is open to change now', disabled: !next },
    { value: 'all', label: 'Every box', help: 'From the next open box on' },
  ];

  return (
    <form onSubmit={handleSubmit(values)} noValidate aria-label={`Change your season box of ${view.product.name}`} className="grid gap-4 rounded-xl bg-mango-50 p-4">
      <SelectField
        label="Variety"
        options={choices.map((choice) => String(choice.id))}
        labels={Object.fromEntries(choices.map((choice) => [String(choice.id), `${choice.name} (${formatNzd(choice.unitCents)})`]))}
        value={String(productId)}
        onChange={(event) => setProductId(Number(event.target.value))}
        error={errors.productId}
        data-field="productId"
      />
      <div className="grid gap-1.5" data-field="quantity" data-invalid={errors.quantity ? 'true' : undefined}>
        <p className="text-sm font-medium">Boxes each time</p>
        <QuantityStepper value={quantity} max={maxBoxesPerDelivery} label="Boxes each time" onChange={setQuantity} />
        {errors.quantity && <p role="alert" className="text-sm text-danger-600">{errors.quantity}</p>}
      </div>
      <fieldset className="grid gap-2" data-field="scope" data-invalid={errors.scope ? 'true' : undefined}>
        <legend className="mb-1 text-sm font-medium">Which boxes</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {scopes.map((one) => (
            <label key={one.value} className={`flex items-start gap-2 rounded-lg border bg-white px-3 py-2.5 ${one.disabled ? 'cursor-not-allowed border-ink-500/15 text-ink-500' : 'cursor-pointer border-ink-500/30 has-[:checked]:border-mango-600'}`}>
              <input type="radio" name={`${id}-scope`} value={one.value} checked={scope === one.value} disabled={one.disabled} onChange={() => setScope(one.value)} className="mt-1 accent-mango-600" />
              <span>
                <span className="font-medium">{one.label}</span>
                <span className="block text-sm text-ink-500">{one.help}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.scope && <p role="alert" className="text-sm text-danger-600">{errors.scope}</p>}
      </fieldset>
      {problem && (
        <p role="alert" className="rounded-lg border border-danger-600/40 bg-white px-3 py-2 text-sm text-danger-600">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : 'Save change'}
        </Button>
        <Button variant="ghost" onClick={onDone} disabled={busy}>
          Keep as it is
        </Button>
      </div>
    </form>
  );
}
