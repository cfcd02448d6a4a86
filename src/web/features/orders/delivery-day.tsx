import { CalendarDays, Truck } from 'lucide-react';
import { formatDay } from '../../../contracts/dates';
import { type Carrier, carrierLabels } from '../../../contracts/order';

interface DeliveryFacts {
  deliveryDate: string | null;
  rural: boolean;
  lines: ReadonlyArray<{ isPreOrder: boolean }>;
}

/** The day the boxes arrive (or, for pre-orders not yet allocated, that it is set later), as one sentence. */
export function deliveryDayText(order: DeliveryFacts): string {
  if (order.deliveryDate) return `Delivery day: ${formatDay(order.deliveryDate)}${order.rural ? ' (rural delivery)' : ''}`;
  if (order.lines.some((line) => line.isPreOrder)) return 'Delivery day: set when your pre-order boxes arrive; we will e-mail you the date.';
  return 'Delivery day: to be arranged with you.';
}

export function DeliveryDay({ order }: { order: DeliveryFacts }) {
  return (
    <p className="flex items-center gap-2 rounded-lg bg-mango-50 px-3 py-2 text-sm" data-testid="delivery-day">
      <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
      <span>{deliveryDayText(order)}</span>
    </p>
  );
}

/** The carrier and tracking number, linked to the carrier's tracking page when it has one. */
export function TrackingLink({ order }: { order: { carrier: Carrier | null; trackingNumber: string | null; trackingUrl: string | null } }) {
  if (!order.trackingNumber) return null;
  const carrier = order.carrier ? `${carrierLabels[order.carrier]} ` : '';
  return (
    <p className="flex flex-wrap items-center gap-2 rounded-lg bg-mango-50 px-3 py-2 text-sm">
      <Truck className="size-4 shrink-0" aria-hidden="true" /> Tracking: {carrier}
      <strong>{order.trackingNumber}</strong>
      {order.trackingUrl && (
        <a href={order.trackingUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-mango-700 underline">
          Track your parcel<span className="sr-only"> (opens the carrier’s site)</span>
        </a>
      )}
    </p>
  );
}
