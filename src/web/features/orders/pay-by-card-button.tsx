import { useQueryClient } from '../../lib/query';
import { CreditCard } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { ordersQueryKey, startCardPayment } from './orders-api';

/**
 * Opens a new Stripe Checkout page for an unpaid card order. A 409 means the order moved on (paid
 * before Stripe's webhook arrived, cancelled, timed out): the page reloads the order to show it.
 */
export function PayByCardButton({ number, label = 'Pay by card' }: { number: string; label?: string }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    setBusy(true);
    try {
      const { checkoutUrl } = await startCardPayment(number);
      window.location.assign(checkoutUrl);
    } catch (error) {
      const message = error instanceof ApiError ? error.body?.message : undefined;
      // The order list and this order both sit under the orders key.
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: ordersQueryKey });
      toast({ title: 'Card payment could not start', description: message ?? 'Please try again in a moment.', variant: 'destructive' });
      setBusy(false);
    }
  };
  return (
    <Button onClick={() => void pay()} disabled={busy} className="justify-self-start">
      <CreditCard className="size-4" aria-hidden="true" />
      {busy ? 'Opening Stripe...' : label}
    </Button>
  );
}
