import { useId } from 'react';
import { Link } from 'react-router';
import { formatDay } from '../../../contracts/dates';
import { formatNzd } from '../../../contracts/money';
import type { SeasonBoxDelivery } from '../../../contracts/subscriptions';
import { Button } from '../../components/ui/button';
import { deliveryWords } from './season-box-words';

interface ComingBoxesProps {
  deliveries: SeasonBoxDelivery[];
  /** Which action is under way ('skip:2026-12-12'), if any: every button waits for it. */
  busy: string | null;
  onSkip: (delivery: SeasonBoxDelivery) => void;
  onUndoSkip: (delivery: SeasonBoxDelivery) => void;
}

/** The next deliveries: day, what comes and its price, and Skip or Undo skip until each cut-off. */
export function ComingBoxes({ deliveries, busy, onSkip, onUndoSkip }: ComingBoxesProps) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-1">
      <h4 id={id} className="font-semibold">
        Next deliveries
      </h4>
      <ul className="divide-y divide-mango-50">
        {deliveries.map((delivery) => (
          <ComingBox key={delivery.date} delivery={delivery} busy={busy} onSkip={onSkip} onUndoSkip={onUndoSkip} />
        ))}
      </ul>
    </section>
  );
}

function ComingBox({ delivery, busy, onSkip, onUndoSkip }: { delivery: SeasonBoxDelivery; busy: string | null; onSkip: ComingBoxesProps['onSkip']; onUndoSkip: ComingBoxesProps['onUndoSkip'] }) {
  const id = useId();
  const comes = delivery.state === 'scheduled' || delivery.state === 'ordered';
  const skipping = busy === `skip:${delivery.date}`;
  return (
    <li className="grid grid-cols-[1fr_auto] items-center gap-3 py-3 sm:gap-4" data-state={delivery.state}>
      <div className={`grid gap-0.5 ${comes ? '' : 'text-ink-500'}`}>
        <p id={id} className="font-semibold">
          {formatDay(delivery.date)}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <span>
            {delivery.quantity} × {delivery.productName}
          </span>
          {delivery.changedForThisBox && <span className="rounded-full bg-mango-50 px-2 py-0.5 text-xs font-semibold text-mango-700 ring-1 ring-mango-600/40">Changed for this box</span>}
          <span className="font-semibold tabular-nums">{formatNzd(delivery.totalCents)}</span>
        </p>
        <p className="text-sm text-ink-500">
          {delivery.state === 'ordered' && delivery.orderNumber ? (
            <>
              Ordered:{' '}
              <Link to={`/account/orders/${delivery.orderNumber}`} className="font-semibold text-mango-700 hover:underline">
                {delivery.orderNumber}
              </Link>
            </>
          ) : (
            deliveryWords(delivery)
          )}
        </p>
      </div>
      {delivery.open && delivery.state === 'scheduled' && (
        <Button variant="outline" className="justify-self-end" aria-describedby={id} disabled={busy !== null} onClick={() => onSkip(delivery)}>
          {skipping ? 'Skipping...' : 'Skip'}
        </Button>
      )}
      {delivery.open && delivery.state === 'skipped' && (
        <Button variant="outline" className="justify-self-end" aria-describedby={id} disabled={busy !== null} onClick={() => onUndoSkip(delivery)}>
          {skipping ? 'Bringing it back...' : 'Undo skip'}
        </Button>
      )}
    </li>
  );
}
