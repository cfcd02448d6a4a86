import { Gift } from 'lucide-react';
import type { OrderView } from '../../../contracts/order';

/** A gift order says so to its buyer: who it goes to, and the message printed in the box. */
export function GiftNote({ order }: { order: OrderView }) {
  if (!order.gift) return null;
  return (
    <div className="grid gap-2 rounded-xl bg-mango-50 p-4 text-sm">
      <p className="flex items-center gap-2 font-semibold">
        <Gift className="size-4 text-mango-700" aria-hidden="true" /> A gift for {order.shippingAddress.name}
      </p>
      {order.gift.message ? (
        <>
          <p className="text-ink-500">Your message, printed in the box (which shows no prices):</p>
          <p className="whitespace-pre-line font-serif text-base">{order.gift.message}</p>
        </>
      ) : (
        <p className="text-ink-500">The box shows no prices. You added no message.</p>
      )}
    </div>
  );
}
