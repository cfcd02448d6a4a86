import { and, asc, eq, inArray, isNull, notExists, notInArray, type SQL, sql } from 'drizzle-orm';
import { boxesOf } from '../../../contracts/checkout';
import { addDays, formatDay } from '../../../contracts/dates';
import type { DispatchDay, MoveDelivery, ToScheduleOrder } from '../../../contracts/dispatch';
import { isNzRegion, nzRegions, unsentOrderStatuses } from '../../../contracts/order';
import type { Db } from '../../db/client';
import { dispatchDays, orderEvents, orderLines, orders, pickupDays, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { csvDocument } from '../../lib/csv';
import { Conflict, NotFound } from '../../lib/errors';
import { queueMail } from '../../lib/mail-outbox';
import { deliveryMovedMail } from '../orders/mail';
import { packingCutoff } from '../orders/pay-by';
import type { OrderService } from '../orders/service';
import type { OrderRow } from '../orders/view';
import { orderView } from '../orders/view';
import type { SettingsService } from '../settings/service';
import { capacityOn, holidayIn, isWeekend, packingRegion } from './calendar';
import { pickupHoursOn, pickupWhyNot } from './pickup';
import { bookChosenDate, type DeliveryService, lockDispatchDays, releaseDispatchDay } from './service';
import { packingOf } from '../inventory/packing-plans';

/** Orders that still go out (or went out) on their dispatch day; cancelled and refunded ones do not. */
const goingOut = notInArray(orders.status, ['cancelled', 'refunded']);

/** An order line still waiting for pre-order boxes: its order gets a day when they are allocated. */
const waitingForBoxes = sql`(select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id} and ${orderLines.isPreOrder} and ${orderLines.allocatedAt} is null)`;

/**
 * The dispatch list: what is packed on a day, grouped by region, as a courier's CSV too, and
 * moving an order to another day within the days' capacity.
 */
export class DispatchService {
  constructor(private readonly deps: { db: Db; delivery: DeliveryService; settings: SettingsService; orders: OrderService; canPayByCard: boolean }) {}

  async day(date: string): Promise<DispatchDay> {
    const settings = await this.deps.delivery.settings();
    const [listed, unscheduled, pickups, [booked], [pickupsBooked]] = await Promise.all([
      this.ordersWhere(and(eq(orders.dispatchDate, date), goingOut)!),
      // Pickup orders have no dispatch day: their day is their pickup day, listed below.
      this.ordersWhere(and(isNull(orders.dispatchDate), eq(orders.fulfilment, 'delivery'), inArray(orders.status, [...unsentOrderStatuses]), notExists(waitingForBoxes))!),
      this.ordersWhere(and(eq(orders.fulfilment, 'pickup'), eq(orders.deliveryDate, date), goingOut)!),
      this.deps.db.select().from(dispatchDays).where(eq(dispatchDays.date, date)),
      this.deps.db.select().from(pickupDays).where(eq(pickupDays.date, date)),
    ]);
    // Where each line's boxes come from, planned as the page lists the orders (by region, then
    // those to schedule): paid orders first, as only they can be packed, then unpaid ones.
    const shown = [...nzRegions.flatMap((region) => listed.filter((entry) => entry.order.shipRegion === region)), ...pickups, ...unscheduled];
    const planned = [...shown.filter((entry) => entry.order.status !== 'pending_payment'), ...shown.filter((entry) => entry.order.status === 'pending_payment')];
    const packing = await packingOf(this.deps.db, planned.map((entry) => entry.order), shown.flatMap((entry) => entry.lines));
    const withBatches = ({ view, lines }: (typeof shown)[number]) => ({ ...view, lines: view.lines.map((line, index) => ({ ...line, batches: packing.get(lines[index]!.id) ?? null })) });
    const views = listed.map(withBatches);
    const toSchedule = unscheduled.map(withBatches);
    const closedRow = settings.closedDates.find((row) => row.date === date);
    const holiday = holidayIn(packingRegion, date);
    const pickupHours = settings.pickup.enabled ? pickupHoursOn(settings, date) : null;
    return {
      date,
      capacity: capacityOn(settings, date),
      booked: booked?.bookedBoxes ?? 0,
      closed: closedRow ? `Closed: ${closedRow.reason}` : holiday ? holiday : isWeekend(date) ? 'Weekend: no courier pick-up' : null,
      regions: nzRegions
        .map((region) => ({ region: region as string, orders: views.map((view) => ({ ...view, deliveryDate: view.deliveryDate ?? date })).filter((view) => view.address.region === region) }))
        .filter((group) => group.orders.length > 0),
      toSchedule: toSchedule.map(({ deliveryDate: _none, ...order }) => order),
      pickup: {
        // While pickup is off no places are offered (orders booked before it was turned off still list).
        hours: pickupHours,
        capacity: settings.pickup.ordersPerDay,
        booked: pickupsBooked?.bookedOrders ?? 0,
        closed: pickupHours ? pickupWhyNot(settings, date, 0) ?? null : null,
        orders: pickups.map((entry) => ({ ...withBatches(entry), deliveryDate: date, pickupCode: entry.order.pickupCode! })),
      },
    };
  }

  /** The orders that match, oldest first, with their customer, address and lines. */
  private async ordersWhere(where: SQL): Promise<Array<{ order: OrderRow; lines: Array<typeof orderLines.$inferSelect>; view: ToScheduleOrder & { deliveryDate: string | null } }>> {
    const { db } = this.deps;
    const rows = await db
      .select({ order: orders, customer: { firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone } })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(asc(orders.createdAt), asc(orders.id));
    const lines = rows.length
      ? await db
          .select()
          .from(orderLines)
          .where(inArray(orderLines.orderId, rows.map(({ order }) => order.id)))
          .orderBy(asc(orderLines.id))
      : [];
    return rows.map(({ order, customer }) => {
      const own = lines.filter((line) => line.orderId === order.id);
      const view = {
        number: order.number,
        status: order.status,
        readyToPack: order.status === 'paid' || order.status === 'packed',
        deliveryDate: order.deliveryDate,
        boxes: boxesOf(own),
        rural: order.rural,
        customer: { name: `${customer.firstName} ${customer.lastName}`.trim(), email: customer.email, phone: customer.phone },
        address: { name: order.shipName, phone: order.shipPhone, street: order.shipStreet, suburb: order.shipSuburb, city: order.shipCity, postcode: order.shipPostcode, region: order.shipRegion },
        deliveryInstructions: order.deliveryInstructions,
        gift: order.giftMessage === null ? null : { message: order.giftMessage },
        lines: own.map((line) => ({ name: line.productName, quantity: line.quantity, isPreOrder: line.isPreOrder, batches: null })),
      };
      return { order, lines: own, view };
    });
  }

  /**
   * The day's paid orders as one CSV row each, in the columns a courier's bulk consignment upload
   * asks for (receiver, address, phone, e-mail, items, rural flag, instructions, reference).
   */
  async csv(date: string): Promise<string> {
    const day = await this.day(date);
    const header = ['Reference', 'Receiver name', 'Phone', 'Email', 'Street', 'Suburb', 'City', 'Postcode', 'Region', 'Rural delivery', 'Boxes', 'Delivery date', 'Contents', 'Instructions'];
    const rows = day.regions.flatMap((group) =>
      group.orders
        .filter((order) => order.readyToPack)
        .map((order) => [
          order.number,
          order.address.name,
          order.address.phone,
          order.customer.email,
          order.address.street,
          order.address.suburb,
          order.address.city,
          order.address.postcode,
          order.address.region,
          order.rural ? 'Yes' : 'No',
          String(order.boxes),
          order.deliveryDate,
          order.lines.map((line) => `${line.quantity} x ${line.name}`).join('; '),
          order.deliveryInstructions,
        ]),
    );
    return csvDocument(header, rows);
  }

  /**
   * Moves an unsent order to another delivery day: the new dispatch day must have room (both days
   * are locked in date order first, so two moves between them never wait on each other), the old
   * one gets its boxes back, and the shopper is e-mailed the new day with the change.
   */
  async move(number: string, input: MoveDelivery, actor: { userId: number; requestId: string }): Promise<OrderRow> {
    const { db } = this.deps;
    const settings = await this.deps.delivery.settings();
    const shopSettings = await this.deps.settings.stored();
    const reason = (input.reason ?? '').trim();
    return db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.number, number.toUpperCase())).for('update');
      if (!order) throw new NotFound('Order not found');
      if (order.fulfilment === 'pickup') throw new Conflict('This order is collected from the shop: it has a pickup day, not a delivery day.');
      if (!unsentOrderStatuses.includes(order.status)) throw new Conflict('This order has been sent, cancelled or refunded: its delivery day can no longer change.');
      const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
      if (lines.some((line) => line.isPreOrder && line.allocatedAt === null)) throw new Conflict('This order still waits for pre-order boxes: it gets its delivery day when they are allocated.');
      if (!isNzRegion(order.shipRegion)) throw new Conflict(`This order's region (${order.shipRegion}) has no delivery days.`);
      if (order.deliveryDate === input.deliveryDate) return order;
      const boxes = boxesOf(lines);
      const newDispatch = addDays(input.deliveryDate, -settings.regions[order.shipRegion].leadDays);
      await lockDispatchDays(tx, [order.dispatchDate, newDispatch].filter((day): day is string => Boolean(day)));
      if (order.dispatchDate && order.deliveryBoxes > 0) await releaseDispatchDay(tx, order.dispatchDate, order.deliveryBoxes);
      const booked = await bookChosenDate(tx, { settings, region: order.shipRegion, boxes, now: this.deps.delivery.clock() }, input.deliveryDate);
      const [moved] = await tx
        .update(orders)
        .set({
          deliveryDate: booked.deliveryDate,
          dispatchDate: booked.dispatchDate,
          deliveryBoxes: booked.boxes,
          // An unpaid bank transfer is due by its new packing day's cut-off (or its timeout, when sooner).
          ...(order.status === 'pending_payment' && order.paymentMethod === 'bank_transfer'
            ? { payBy: packingCutoff(booked.dispatchDate, settings.cutoffTime) }
            : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(orders.id, order.id))
        .returning();
      const from = order.deliveryDate ? formatDay(order.deliveryDate) : 'no day';
      const note = `Delivery moved from ${from} to ${formatDay(booked.deliveryDate)}${reason ? `: ${reason}` : ''}`;
      await tx.insert(orderEvents).values({ orderId: order.id, status: order.status, note, actorUserId: actor.userId });
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'order.delivery-date',
        entity: 'order',
        entityId: order.number,
        before: { deliveryDate: order.deliveryDate, dispatchDate: order.dispatchDate },
        after: { deliveryDate: booked.deliveryDate, dispatchDate: booked.dispatchDate, reason },
        requestId: actor.requestId,
      });
      const [customer] = await tx.select().from(users).where(eq(users.id, order.userId));
      if (customer) {
        const view = await orderView(tx, moved!, shopSettings, this.deps.canPayByCard);
        await queueMail(tx, deliveryMovedMail(this.deps.orders.mailContext(customer, view, shopSettings), order.deliveryDate, reason));
      }
      return moved!;
    });
  }

}
