import { CalendarDays, Truck } from 'lucide-react';
import { formatDay } from '../../../contracts/dates';
import { type Carrier, carrierLabels } from '../../../contracts/order';
import type { OrderPickupView } from '../../../contracts/pickup';

interface DeliveryFacts {
  deliveryDate: string | null;
  rural: boolean;
  lines: ReadonlyArray<{ isPreOrder: boolean }>;
  /** A pickup order: the day is its pickup day. */
  pickup?: OrderPickupView | null;
}

/** The day the boxes arrive (or, for pre-orders not yet allocated, that it is set later), as one sentence. */
export function deliveryDayText(order: DeliveryFacts): string {
  if (order.pickup && order.deliveryDate) return `Pickup day: ${formatDay(order.deliveryDate)}, ${order.pickup.hours}, at ${order.pickup.address}`;
  if (order.deliveryDate) return `Delivery day: ${formatDay(order.deliveryDate)}${order.rural ? ' (rural delivery)' : ''}`;
  if (order.lines.some((line) => line.isPreOrder)) return 'Delivery day: set when your pre-order boxes arrive; we will e-mail you the date.';
  return 'Delivery day: to be arranged with you.';
}

/** `staff`: the pickup code is read out to staff, who check it at the counter. */
export function DeliveryDay({ order, staff = false }: { order: DeliveryFacts; staff?: boolean }) {
  return (
    <>
      <p className="flex items-center gap-2 rounded-lg bg-mango-50 px-3 py-2 text-sm" data-testid="delivery-day">
        <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
        <span>{deliveryDayText(order)}</span>
      </p>
      {order.pickup && (
        <p className="grid gap-1 rounded-lg border-2 border-dashed border-mango-600 px-3 py-2 text-sm">
          <span>{staff ? 'Pickup code (the customer shows it when collecting):' : 'Your pickup code, to show when you collect:'}</span>
          <strong className="font-mono text-2xl tracking-widest" data-testid="pickup-code">
            {order.pickup.code}
          </strong>
          {!staff && <span className="text-ink-500">We e-mail you when your order is packed and ready.</span>}
        </p>
      )}
    </>
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
