import { Check, LoaderCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { isEmailAddress, normaliseEmail } from '../../../contracts/email';
import { shopRules, toastDurations } from '../../../contracts/shop-rules';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast';
import { postNewsletterSubscription } from './api/subscribe';
import { subscriptionFailureMessage } from './subscription-failure';

type BoxState = 'idle' | 'submitting' | 'subscribed';

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * Spec 2, 4, 5 and 8: idle, submitting (at least the spec's 1.5 s), subscribed. ARCHITECTURE
 * difference 7: the subscription is really stored, so the submitting state lasts while the POST runs.
 */
export function NewsletterBox() {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<BoxState>('idle');
  const locked = state !== 'idle';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (locked) return;
    if (email.trim() === '') {
      return toast({ title: 'Email Required', description: 'Please enter your email address.', variant: 'destructive' });
    }
    if (!isEmailAddress(email)) {
      return toast({ title: 'Invalid Email', description: 'Please enter a valid email address.', variant: 'destructive' });
    }
    setState('submitting');
    const [failure] = await Promise.all([
      postNewsletterSubscription({ email: normaliseEmail(email) }).then(
        () => null,
        (error: unknown) => ({ error }),
      ),
      wait(shopRules.newsletterDelayMs),
    ]);
    if (failure) {
      // The spec has no failure state (it never called a server); we add this toast and return to
      // idle with the address kept, because silently losing a shopper's subscription is worse.
      setState('idle');
      return toast({ title: 'Subscription Failed', description: subscriptionFailureMessage(failure.error), variant: 'destructive' });
    }
    setEmail('');
    setState('subscribed');
    toast({ title: 'Subscribed!', description: 'Thank you for subscribing to our newsletter.', duration: toastDurations.newsletterSuccess });
  }

  return (
    <section aria-labelledby="newsletter-heading" className="rounded-3xl bg-mango-50 px-6 py-10 sm:px-10">
      <div className="mx-auto max-w-2xl space-y-5 text-center">
        <h2 id="newsletter-heading" className="text-3xl font-semibold">Stay Updated</h2>
        <p className="text-ink-500">Be the first to hear when your favourite varieties come into season, plus new arrivals and offers.</p>
        <form onSubmit={submit} noValidate aria-busy={state === 'submitting'} className="flex flex-col gap-3 sm:flex-row">
          <input
            type="email"
            name="email"
            required
            aria-label="Email address"
            placeholder="Enter your email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            disabled={locked}
            className="min-w-0 flex-1 rounded-full border border-ink-500/30 bg-white px-5 py-2.5 text-base outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40 disabled:cursor-not-allowed disabled:opacity-60"
          />
          <Button type="submit" disabled={locked} className="sm:min-w-36">
            {state === 'submitting' && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
            {state === 'subscribed' && <Check className="size-4" aria-hidden="true" />}
            {state === 'subscribed' ? 'Subscribed' : 'Subscribe'}
          </Button>
        </form>
        <p role="status" className="sr-only">
          {state === 'submitting' ? 'Subscribing...' : ''}
        </p>
        <p className="text-sm text-ink-500">We respect your privacy. Unsubscribe at any time.</p>
      </div>
    </section>
  );
}
