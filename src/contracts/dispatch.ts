import type { PickupHours } from './pickup';
import type { LinePacking } from './batches';
import { z } from 'zod';
import { deliveryDateField } from './checkout';
import type { OrderStatus } from './order';
import { calendarDateField } from './text';

/** GET /api/admin/dispatch?date=: the orders packed and handed to the courier on one day. */
export const dispatchQuerySchema = z.object({ date: calendarDateField('Date') });

/** POST /api/admin/orders/:number/delivery-date: move an order to another delivery day. */
export const moveDeliverySchema = z.strictObject({
  deliveryDate: deliveryDateField,
  /** Told to the shopper in the e-mail about the new day. */
  reason: z.string({ error: 'Reason must be text' }).trim().max(200, 'Reason must be at most 200 characters').optional().default(''),
});
export type MoveDelivery = z.input<typeof moveDeliverySchema>;

export interface DispatchOrder {
  number: string;
  status: OrderStatus;
  /** Packed and sent only once paid: an unpaid order is listed so staff can see it coming. */
  readyToPack: boolean;
  deliveryDate: string;
  boxes: number;
  rural: boolean;
  customer: { name: string; email: string; phone: string };
  address: { name: string; phone: string; street: string; suburb: string; city: string; postcode: string; region: string };
  deliveryInstructions: string;
  /** A gift: the message printed on its packing slip (empty for none); null when not a gift. */
  gift: { message: string } | null;
  /** Each line with where its boxes come from (packed, or the plan down the list); null when it holds none yet. */
  lines: Array<{ name: string; quantity: number; isPreOrder: boolean; batches: LinePacking | null }>;
}

/** An unsent order with no delivery day yet (a claim's replacement, a pre-order that found no free day). */
export type ToScheduleOrder = Omit<DispatchOrder, 'deliveryDate'>;

export interface DispatchDay {
  date: string;
  /** Boxes the shop can pack that day, and boxes booked on it. */
  capacity: number;
  booked: number;
  /** Why nothing should be dispatched that day (a closed date, a holiday where the shop packs), or null. */
  closed: string | null;
  /** Orders by delivery region, regions in the order of New Zealand's list. */
  regions: Array<{ region: string; orders: DispatchOrder[] }>;
  /**
   * Unsent orders that have no dispatch day, whatever the day shown, oldest first, until staff
   * give them one (pre-orders still waiting for their boxes get theirs when they are allocated).
   */
  toSchedule: ToScheduleOrder[];
  /** Click-and-collect on the day: its hours (null when none that weekday), places and the orders to hand over. */
  pickup: {
    hours: PickupHours | null;
    capacity: number;
    booked: number;
    /** Why there is no pickup that day (a closed date, a public holiday), or null. */
    closed: string | null;
    orders: PickupListOrder[];
  };
}

/** A pickup order on the day's list: what to pack, who collects it and the code they show. */
export interface PickupListOrder extends DispatchOrder {
  pickupCode: string;
}
