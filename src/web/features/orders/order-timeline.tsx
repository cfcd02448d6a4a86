import { type OrderEventView, statusLabel } from '../../../contracts/order';
import type { Fulfilment } from '../../../contracts/pickup';
import { formatDateTime } from '../../../contracts/dates';

/**
 * Each status an order went through, when, and the note that came with it. A step that kept the
 * status (pre-order boxes set aside, a new expected date) is an update to the order.
 */
export function OrderTimeline({ events, fulfilment = 'delivery' }: { events: OrderEventView[]; fulfilment?: Fulfilment }) {
  return (
    <ol className="grid gap-3 border-l-2 border-mango-500 pl-4">
      {events.map((event, index) => (
        <li key={index}>
          <p className="font-semibold">{index > 0 && events[index - 1]!.status === event.status ? 'Update' : statusLabel(event.status, fulfilment)}</p>
          <p className="text-sm text-ink-500">
            <time dateTime={event.at}>{formatDateTime(event.at)}</time>
            {event.note ? ` · ${event.note}` : ''}
          </p>
        </li>
      ))}
    </ol>
  );
}
