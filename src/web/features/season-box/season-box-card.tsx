import { useState } from 'react';
import { Link } from 'react-router';
import { addDays } from '../../../contracts/dates';
import { formatNzd } from '../../../contracts/money';
import type { SubscriptionStatus, SubscriptionView } from '../../../contracts/subscriptions';
import { ComingBoxes } from './coming-boxes';
import { Button } from '../../components/ui/button';
import { ApiError } from '../../lib/api-client';
import { cardSetupFor, seasonBoxActions } from './season-box-api';
import { SeasonBoxControls } from './season-box-controls';
import { dayWords } from '../../../contracts/season-box-terms';
import { discountWords } from './season-box-terms';
import { boxesWords, howOftenWords, statusWords } from './season-box-words';
import { useSeasonBoxAction } from './use-season-box-action';

const waitingTone = 'bg-mango-50 text-mango-700 ring-mango-600/40';
const tones: Partial<Record<SubscriptionStatus, string>> = {
  active: 'bg-white text-leaf-700 ring-leaf-700/40',
  paused: waitingTone,
  cancelled: 'bg-white text-danger-600 ring-danger-600/40',
  ended: 'bg-white text-ink-500 ring-ink-500/40',
};

/** Over: cancelled, or its season ended. Nothing more can be done to it. */
const isOver = (status: SubscriptionStatus) => status === 'cancelled' || status === 'ended';

/** One season box: what comes how often, its state and price, the next deliveries, and what the shopper can do. */
export function SeasonBoxCard({ view, today }: { view: SubscriptionView; today: string }) {
  const action = useSeasonBoxAction();
  const live = view.status === 'active' || view.status === 'paused';
  const facts: Array<[string, string]> = [
    ['Price per box', `${formatNzd(view.unitPriceCents)}${discountWords(view.product.subscriberDiscountPercent)}, delivery ${formatNzd(view.deliveryCents)}`],
    ...(live && view.lastDeliveryDate ? [['Last box of the season', dayWords(view.lastDeliveryDate)] as [string, string]] : []),
    ['Delivered to', `${view.shipping.name}, ${view.shipping.street}, ${view.shipping.city}`],
    ['Paid by', view.paymentMethod === 'stripe' ? 'Card, box by box' : 'Bank transfer, box by box'],
  ];

  return (
    <li className="grid gap-4 rounded-2xl border border-ink-500/15 p-4 sm:p-5" aria-labelledby={`season-box-${view.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex items-start gap-3">
          <img src={view.product.imageUrl} alt="" width={64} height={48} loading="lazy" className="aspect-[4/3] w-16 shrink-0 rounded-lg object-cover" />
          <div>
            <h3 id={`season-box-${view.id}`} className="text-lg font-semibold">
              <Link to={`/product/${view.product.id}`} className="hover:text-mango-700 hover:underline">
                {view.product.name}
              </Link>
            </h3>
            <p className="text-sm">
              {boxesWords(view.quantity)} · {howOftenWords(view)}
            </p>
          </div>
        </div>
        <span className={`inline-block rounded-full px-3 py-0.5 text-sm font-semibold ring-1 ${tones[view.status] ?? waitingTone}`}>{statusWords(view)}</span>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {facts.map(([term, detail]) => (
          <div key={term}>
            <dt className="text-ink-500">{term}</dt>
            <dd className="font-medium tabular-nums">{detail}</dd>
          </div>
        ))}
      </dl>
      {live && view.coming.length > 0 && (
        <ComingBoxes
          deliveries={view.coming}
          busy={action.busy}
          onSkip={(delivery) => void action.run(`skip:${delivery.date}`, () => seasonBoxActions.skip(view.id, delivery.date), 'Box skipped')}
          onUndoSkip={(delivery) => void action.run(`skip:${delivery.date}`, () => seasonBoxActions.undoSkip(view.id, delivery.date), 'Box brought back')}
        />
      )}
      {action.failure && (
        <p role="alert" className="rounded-lg border border-danger-600/40 bg-white px-3 py-2 text-sm text-danger-600">
          {action.failure}
        </p>
      )}
      {view.status === 'awaiting_card' && <SaveCard id={view.id} />}
      {!isOver(view.status) && <SeasonBoxControls view={view} action={action} tomorrow={addDays(today, 1)} cancelOnly={!live} />}
    </li>
  );
}

/** A card season box whose card is not saved yet: Stripe's page again, to save it. */
function SaveCard({ id }: { id: number }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = async () => {
    setBusy(true);
    setFailure(null);
    try {
      window.location.assign((await cardSetupFor(id)).cardSetupUrl);
    } catch (error) {
      setFailure((error instanceof ApiError ? error.body?.message : undefined) ?? 'We could not reach Stripe. Please try again in a moment.');
      setBusy(false);
    }
  };
  return (
    <div className="grid gap-2 rounded-xl bg-mango-50 p-4">
      <p className="text-sm">Your boxes start once your card is saved with Stripe. Nothing is charged until each box's cut-off.</p>
      <Button className="justify-self-start" disabled={busy} onClick={() => void save()}>
        {busy ? 'Opening Stripe...' : 'Save your card'}
      </Button>
      {failure && (
        <p role="alert" className="text-sm text-danger-600">
          {failure}
        </p>
      )}
    </div>
  );
}
