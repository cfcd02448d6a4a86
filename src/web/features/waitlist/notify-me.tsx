import { useQueryClient } from '../../lib/query';
import { Bell, Check } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { isEmailAddress, normaliseEmail } from '../../../contracts/email';
import type { Product } from '../../../contracts/product';
import type { WaitlistJoinAnswer } from '../../../contracts/waitlist';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { ApiError, errorMessage } from '../../lib/api-client';
import { useBrowserValue } from '../../lib/browser-value';
import { useAuth } from '../auth/auth-provider';
import { joinWaitlist, useMyWaitlists, waitlistKey } from './waitlist-api';

type WaitlistProduct = Pick<Product, 'id' | 'name'>;
/** What the list waits for: boxes again, or pre-orders that open at a set time. */
export type WaitsFor = 'back' | 'opening';

/**
 * "Notify me" for a product that cannot be bought now: one click for a signed-in shopper; a
 * visitor gives an address and confirms it from the mail (double opt-in).
 */
export function NotifyMe({ product, startOpen = false, waitsFor = 'back' }: { product: WaitlistProduct; startOpen?: boolean; waitsFor?: WaitsFor }) {
  const when = waitsFor === 'opening' ? 'when pre-orders open' : 'when it is back';
  // The same wait named with the product, for the button, the form and its lead.
  const whenNamed = waitsFor === 'opening' ? `when pre-orders for ${product.name} open` : `when ${product.name} is back`;
  const { user } = useAuth();
  const mine = useMyWaitlists();
  const queryClient = useQueryClient();
  const [answer, setAnswer] = useState<WaitlistJoinAnswer | null>(null);
  const [asking, setAsking] = useState(startOpen);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Drawn by the server, the button does nothing until the page's script has taken over: it waits
  // disabled until then, so an early tap is not silently lost.
  const hydrated = useBrowserValue(() => true, false);

  async function send(body: { productId: number; email?: string }) {
    setBusy(true);
    setFailure(undefined);
    try {
      setAnswer(await joinWaitlist(body));
      if (user) await queryClient.invalidateQueries({ queryKey: waitlistKey });
    } catch (error) {
      const field = error instanceof ApiError ? error.body?.fieldErrors?.email : undefined;
      if (field) setFieldError(field);
      else setFailure(errorMessage(error, 'We could not add you to the waitlist. Please check your connection and try again.'));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (email.trim() === '') return setFieldError('Email address is required');
    if (!isEmailAddress(email)) return setFieldError('Please enter a valid email address');
    setFieldError(undefined);
    void send({ productId: product.id, email: normaliseEmail(email) });
  }

  const onList = user && mine.data?.some((entry) => entry.productId === product.id);
  if (answer || onList) {
    return (
      <div role="status" className="flex gap-3 rounded-2xl bg-mango-50 p-4 text-sm">
        <Check className="mt-0.5 size-5 shrink-0 text-leaf-700" aria-hidden="true" />
        <p>
          {answer?.message ?? `You are on the waitlist for ${product.name}. We will e-mail you ${when}.`}
          {user && (
            <>
              {' '}
              <Link to="/account#waitlists" className="font-semibold text-mango-700 underline-offset-2 hover:underline">
                Your waitlists
              </Link>
            </>
          )}
        </p>
      </div>
    );
  }

  const alert = failure && (
    <p role="alert" className="text-sm text-danger-600">
      {failure}
    </p>
  );
  if (user || !asking) {
    return (
      <div className="grid justify-items-start gap-2">
        <Button variant="outline" disabled={busy || !hydrated} onClick={() => (user ? void send({ productId: product.id }) : setAsking(true))} aria-label={`Notify me ${whenNamed}`}>
          <Bell className="size-4" aria-hidden="true" /> {busy ? 'Adding...' : 'Notify me'}
        </Button>
        {alert}
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label={`Notify me ${whenNamed}`} className="grid gap-3 rounded-2xl bg-mango-50 p-4">
      <p className="text-sm">
        Leave your e-mail and we will write {waitsFor === 'opening' ? whenNamed : `once ${whenNamed}`}. We send a link to confirm first.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          autoFocus={!startOpen}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setFieldError(undefined);
          }}
          error={fieldError}
          disabled={busy}
          className="min-w-0 flex-1"
        />
        <Button type="submit" disabled={busy} className="sm:mt-7">
          <Bell className="size-4" aria-hidden="true" /> {busy ? 'Sending...' : 'Notify me'}
        </Button>
      </div>
      {alert}
    </form>
  );
}
