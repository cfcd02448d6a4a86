import { formatNzd } from '../../../contracts/money';
import { intervalLabels, type SubscriptionInterval } from '../../../contracts/subscriptions';
import { dayWords } from '../../../contracts/season-box-terms';
import { discountWords } from './season-box-terms';

interface SeasonBoxSummaryProps {
  productName: string;
  /** One box's price, the subscriber discount taken off. */
  unitCents: number;
  discountPercent: number;
  quantity: number;
  /** Delivery for each box, rural surcharge in; undefined while the shop's shipping is not known. */
  deliveryCents: number | undefined;
  rural: boolean;
  every: SubscriptionInterval;
  seasonEndsOn: string | null;
}

/** What each delivery costs: the boxes at the subscriber price, delivery, and the total. */
export function SeasonBoxSummary({ productName, unitCents, discountPercent, quantity, deliveryCents, rural, every, seasonEndsOn }: SeasonBoxSummaryProps) {
  const boxesCents = unitCents * quantity;
  return (
    <section aria-labelledby="season-box-summary" className="grid gap-2 rounded-xl bg-mango-50 p-4 text-sm">
      <h3 id="season-box-summary" className="text-lg font-semibold">
        Price per box
      </h3>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
        <dt>
          {quantity} × {productName} at {formatNzd(unitCents)}
          {discountWords(discountPercent)}
        </dt>
        <dd className="text-right tabular-nums">{formatNzd(boxesCents)}</dd>
        <dt>{rural ? 'Delivery (rural)' : 'Delivery'}</dt>
        <dd className="text-right tabular-nums">{deliveryCents === undefined ? '...' : formatNzd(deliveryCents)}</dd>
        <dt className="border-t border-mango-600/30 pt-1 font-semibold">Each time, delivery included</dt>
        <dd className="border-t border-mango-600/30 pt-1 text-right font-semibold tabular-nums">{deliveryCents === undefined ? '...' : formatNzd(boxesCents + deliveryCents)}</dd>
      </dl>
      <p className="text-ink-500">
        {intervalLabels[every]}
        {seasonEndsOn ? ` until the season ends on ${dayWords(seasonEndsOn)}` : ' until you cancel'}. Each box is priced on its cut-off day at the price of the day, less your subscriber discount.
      </p>
    </section>
  );
}
