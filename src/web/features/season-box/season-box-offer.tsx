import { Repeat } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { dollarsToCents, formatNzd } from '../../../contracts/money';
import type { Product } from '../../../contracts/product';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useBrowserValue } from '../../lib/browser-value';
import { useRenderDay } from '../../lib/render-time';
import { useAuth } from '../auth/auth-provider';
import { dayWords, subscriberPriceCents } from '../../../contracts/season-box-terms';
import { discountWords, offersSeasonBox } from './season-box-terms';

// The form (fields, dates, the schema) loads when a shopper opens it: the product page stays small.
const loadForm = () => import('./subscribe-form');
const SubscribeForm = lazy(loadForm);

/** `?season-box=start`: a visitor sent to sign in from the offer is back, and the form opens for them. */
const startParam = 'season-box';
const startsOpen = () => new URLSearchParams(window.location.search).get(startParam) === 'start';

/** The product page's season box: its price less the subscriber discount, the season's end, and the way in. */
export function SeasonBoxOffer({ product }: { product: Product }) {
  const today = useRenderDay();
  const { user } = useAuth();
  const askedInAddress = useBrowserValue(startsOpen, false);
  const [chosen, setChosen] = useState<'open' | 'closed'>();
  // Drawn by the server, the button does nothing until the page's script has taken over.
  const hydrated = useBrowserValue(() => true, false);
  if (!offersSeasonBox(product, today)) return null;
  const open = Boolean(user) && (chosen === 'open' || (chosen === undefined && askedInAddress));
  const unitCents = subscriberPriceCents(dollarsToCents(product.price), product.subscriberDiscountPercent);
  const back = `/product/${product.id}?${startParam}=start#season-box`;
  const preload = () => void loadForm().catch(() => undefined);
  const way = 'Get it every week or fortnight';

  return (
    <section id="season-box" aria-labelledby="season-box-title" className="grid scroll-mt-24 gap-3 rounded-2xl border border-mango-500/60 bg-white p-5">
      <h2 id="season-box-title" className="flex items-center gap-2 text-xl font-semibold">
        <Repeat className="size-5 text-mango-700" aria-hidden="true" /> Season box
      </h2>
      <p>
        <span className="text-lg font-semibold tabular-nums">{formatNzd(unitCents)}</span> a box as a season box{discountWords(product.subscriberDiscountPercent)}
      </p>
      {product.seasonEndsOn && <p className="text-sm font-medium">Until {dayWords(product.seasonEndsOn)}</p>}
      <p className="text-sm text-ink-500">Fresh boxes every week or fortnight on the day you choose. Skip, change or pause any box before its cut-off, or cancel in one click.</p>
      {open && user ? (
        <Suspense fallback={<Spinner compact label="Loading the season box form..." />}>
          <SubscribeForm product={product} user={user} unitCents={unitCents} onClose={() => setChosen('closed')} />
        </Suspense>
      ) : user ? (
        <Button className="justify-self-start" disabled={!hydrated} onClick={() => setChosen('open')} onPointerEnter={preload} onFocus={preload}>
          {way}
        </Button>
      ) : (
        <div className="grid justify-items-start gap-2">
          <Link to={`/auth?redirect=${encodeURIComponent(back)}`} className="inline-flex rounded-full bg-mango-500 px-5 py-2.5 text-sm font-semibold text-ink-900 hover:bg-mango-600">
            {way}
          </Link>
          <p className="text-sm text-ink-500">You sign in first, then come straight back here.</p>
        </div>
      )}
    </section>
  );
}
