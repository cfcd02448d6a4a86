import { formatDate } from '../../lib/format';

interface SendChoiceProps {
  /** True: the in-stock boxes now and the pre-orders later; false: everything once the pre-orders arrive. */
  separately: boolean;
  onChange: (separately: boolean) => void;
  /** The latest expected date of the cart's pre-orders, when known. */
  expected: string | null;
}

/** A cart of in-stock and pre-order boxes: send what is ready now, or wait and send it all together. */
export function SendChoice({ separately, onChange, expected }: SendChoiceProps) {
  const arrival = expected ? `expected ${formatDate(expected)}` : 'when they arrive';
  const option = (value: boolean, title: string, help: string) => (
    <label className={`flex cursor-pointer gap-3 rounded-xl border p-4 ${separately === value ? 'border-mango-600 bg-mango-50' : 'border-ink-500/30'}`}>
      <input type="radio" name="send" className="mt-1 size-4 accent-mango-600" checked={separately === value} onChange={() => onChange(value)} />
      <span className="grid gap-1">
        <span className="font-semibold">{title}</span>
        <span className="text-sm text-ink-500">{help}</span>
      </span>
    </label>
  );
  return (
    <fieldset className="grid gap-3" data-field="sendSeparately">
      <legend className="mb-1 text-lg font-semibold">Your cart has in-stock and pre-order boxes</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {option(true, 'Send in two deliveries', `The in-stock boxes on the day you choose below, the pre-order boxes ${arrival}. No extra delivery charge: two orders, one payment.`)}
        {option(false, 'Send it all together', `One delivery of every box, once the pre-order boxes have arrived (${arrival}).`)}
      </div>
    </fieldset>
  );
}
