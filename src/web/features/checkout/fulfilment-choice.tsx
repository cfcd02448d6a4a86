import { Store, Truck } from 'lucide-react';
import type { Fulfilment } from '../../../contracts/pickup';

interface FulfilmentChoiceProps {
  value: Fulfilment;
  onChange: (next: Fulfilment) => void;
  /** Where pickup is. */
  address: string;
  /** Pre-orders are delivered when their boxes arrive: no pickup for such a cart. */
  pickupBlocked: boolean;
  error?: string;
}

/** Delivery by courier, or collecting from the shop for free. */
export function FulfilmentChoice({ value, onChange, address, pickupBlocked, error }: FulfilmentChoiceProps) {
  const option = (kind: Fulfilment, title: string, help: string, Icon: typeof Truck, disabled = false) => (
    <label
      className={`flex gap-3 rounded-xl border p-4 ${disabled ? 'cursor-not-allowed border-ink-500/15 bg-ink-900/5 text-ink-500' : value === kind ? 'cursor-pointer border-mango-600 bg-mango-50' : 'cursor-pointer border-ink-500/30'}`}>
      <input type="radio" name="fulfilment" value={kind} className="mt-1 size-4 accent-mango-600" checked={value === kind} disabled={disabled} onChange={() => onChange(kind)} />
      <span className="grid gap-1">
        <span className="flex items-center gap-2 font-semibold">
          <Icon className="size-5" aria-hidden="true" /> {title}
        </span>
        <span className="text-sm text-ink-500">{help}</span>
      </span>
    </label>
  );
  return (
    <fieldset className="grid gap-3" data-field="fulfilment" data-invalid={error ? 'true' : undefined}>
      <legend className="mb-1 text-lg font-semibold">How would you like your mangoes?</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {option('delivery', 'Delivery', 'To your door (or as a gift to someone else) on a day you choose.', Truck)}
        {option('pickup', 'Pick up from the shop', pickupBlocked ? 'Pre-orders are delivered when their boxes arrive, so this order goes by courier.' : `Free, from ${address}.`, Store, pickupBlocked)}
      </div>
      {error && (
        <p role="alert" className="text-sm text-danger-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
