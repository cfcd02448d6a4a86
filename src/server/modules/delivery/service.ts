import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { addDays, formatDay } from '../../../contracts/dates';
import { defaultDeliverySettings, type DeliveryDayOption, type DeliverySettings, deliverySettingsSchema, type DeliverySettingsUpdate } from '../../../contracts/delivery';
import type { NzRegion, PaymentMethod } from '../../../contracts/order';
import type { Db, Tx } from '../../db/client';
import { deliverySettings, dispatchDays } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { BadRequest, Conflict } from '../../lib/errors';
import { type CacheBus, CachedValue } from '../../lib/cache-bus';
import type { PickupDates } from '../../../contracts/pickup';
import { capacityOn, deliveryOptions, firstPackingDay, firstPackingDayFor, whyNot } from './calendar';
import { pickupDates } from './pickup';
import { ReservedBoxes, reservedBoxes } from '../subscriptions/reserved';

/** How far ahead checkout, and a pre-order's booking, look for delivery dates. */
export const horizonDays = 90;

/**
 * Delivery settings (one validated object, cached in each process and dropped on every write
 * through the bus) and the dates offered to a region with the boxes already booked.
 */
export class DeliveryService {
  private readonly cache: CachedValue<DeliverySettings>;
  /** What season boxes will take of each dispatch day (docs/season-box.md), kept a few seconds. */
  readonly reserved: ReservedBoxes;

  constructor(
    private readonly db: Db,
    private readonly bus: CacheBus,
    readonly clock: () => Date = () => new Date(),
  ) {
    this.cache = new CachedValue(() => this.load());
    this.reserved = new ReservedBoxes(db, clock, horizonDays + 14);
    // Delivery settings change with the shop's settings: one topic tells every process.
    bus.on('settings', () => this.cache.invalidate());
  }

  settings(): Promise<DeliverySettings> {
    return this.cache.get();
  }

  async update(next: DeliverySettingsUpdate, actor: { userId: number; requestId: string }): Promise<DeliverySettings> {
    let sorted: DeliverySettings | undefined;
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(deliverySettings).for('update');
      // Settings sent without pickup keep the stored pickup settings (or the default, off).
      const pickup = next.pickup ?? deliverySettingsSchema.safeParse(before?.data).data?.pickup ?? defaultDeliverySettings.pickup;
      const pickupClosed = [...pickup.closedDates].sort((a, b) => a.date.localeCompare(b.date));
      sorted = {
        ...next,
        pickup: { ...pickup, closedDates: pickupClosed },
        closedDates: [...next.closedDates].sort((a, b) => a.date.localeCompare(b.date)),
        capacityOverrides: [...next.capacityOverrides].sort((a, b) => a.date.localeCompare(b.date)),
      };
      await tx
        .insert(deliverySettings)
        .values({ id: 1, data: sorted })
        .onConflictDoUpdate({ target: deliverySettings.id, set: { data: sorted, updatedAt: sql`now()` } });
      await recordAudit(tx, { actorUserId: actor.userId, action: 'delivery.update', entity: 'settings', entityId: 'delivery', before: before?.data ?? null, after: sorted, requestId: actor.requestId });
    });
    await this.bus.publish('settings');
    return sorted!;
  }

  /** The dates checkout offers to `region` for an order of `boxes` paid by `payment`, at `now`. */
  async options(region: NzRegion, boxes: number, db: Db | Tx = this.db, settings?: DeliverySettings, payment?: PaymentMethod): Promise<DeliveryDayOption[]> {
    settings ??= await this.settings();
    const now = this.clock();
    const from = firstPackingDay(now, settings.cutoffTime);
    const booked = withReserved(await bookedBetween(db, from, addDays(from, horizonDays)), await this.reserved.around(settings));
    // A bank transfer sees the same days, the ones too soon for its payment greyed out.
    return deliveryOptions({ settings, region, now, booked, boxes, wanted: 10, horizonDays, payableFrom: firstPackingDayFor(now, settings.cutoffTime, payment) });
  }

  /** GET /api/pickup/dates: where and when shoppers can collect (for an order paid by `payment`), with the orders already booked. */
  async pickup(payment?: PaymentMethod): Promise<PickupDates> {
    const settings = await this.settings();
    return { enabled: settings.pickup.enabled, address: settings.pickup.address, dates: await pickupDates(this.db, settings, this.clock(), payment) };
  }

  private async load(): Promise<DeliverySettings> {
    const [row] = await this.db.select().from(deliverySettings).limit(1);
    const parsed = deliverySettingsSchema.safeParse(row?.data);
    // A row saved under older rules falls back to the defaults as a whole: delivery days are read together.
    return parsed.success ? parsed.data : defaultDeliverySettings;
  }
}

/** Boxes booked per dispatch day from `from` to `to`. */
export async function bookedBetween(db: Db | Tx, from: string, to: string): Promise<Map<string, number>> {
  const rows = await db
    .select()
    .from(dispatchDays)
    .where(and(gte(dispatchDays.date, from), lte(dispatchDays.date, to)));
  return new Map(rows.map((row) => [row.date, row.bookedBoxes]));
}

/**
 * Boxes per dispatch day that other orders cannot have: those booked, and those season boxes
 * will take on it (their runs book them later).
 */
export async function bookedOrReserved(db: Db | Tx, settings: DeliverySettings, from: string, to: string, reserved?: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  return withReserved(await bookedBetween(db, from, to), reserved ?? (await reservedBoxes(db, settings, from, to)));
}

function withReserved(booked: Map<string, number>, reserved: ReadonlyMap<string, number>): Map<string, number> {
  for (const [date, boxes] of reserved) booked.set(date, (booked.get(date) ?? 0) + boxes);
  return booked;
}

/**
 * What a dispatch day can still take from an order: its capacity less the boxes season boxes will
 * take on it (`reserved`, worked out before the transaction; else counted in it).
 */
export async function capacityForOrders(db: Db | Tx, settings: DeliverySettings, dispatchDate: string, reserved?: ReadonlyMap<string, number>): Promise<number> {
  const held = reserved ?? (await reservedBoxes(db, settings, dispatchDate, dispatchDate));
  return Math.max(capacityOn(settings, dispatchDate) - (held.get(dispatchDate) ?? 0), 0);
}

/** A date and the day its boxes leave, as an order holds them. */
export interface BookedDelivery {
  deliveryDate: string;
  dispatchDate: string;
  boxes: number;
}

/**
 * Adds `boxes` to the dispatch day's count unless that would pass its capacity: one conditional
 * update, so of parallel orders only as many as fit succeed. Answers whether the boxes fit.
 */
export async function claimDispatchDay(tx: Tx, dispatchDate: string, boxes: number, capacity: number): Promise<boolean> {
  if (boxes > capacity) return false;
  await tx.insert(dispatchDays).values({ date: dispatchDate, bookedBoxes: 0 }).onConflictDoNothing();
  const [claimed] = await tx
    .update(dispatchDays)
    .set({ bookedBoxes: sql`${dispatchDays.bookedBoxes} + ${boxes}` })
    .where(and(eq(dispatchDays.date, dispatchDate), sql`${dispatchDays.bookedBoxes} + ${boxes} <= ${capacity}`))
    .returning({ booked: dispatchDays.bookedBoxes });
  return Boolean(claimed);
}

/** Gives a dispatch day back the boxes an order held there. */
export async function releaseDispatchDay(tx: Tx, dispatchDate: string, boxes: number): Promise<void> {
  if (boxes <= 0) return;
  await tx
    .update(dispatchDays)
    .set({ bookedBoxes: sql`greatest(${dispatchDays.bookedBoxes} - ${boxes}, 0)` })
    .where(eq(dispatchDays.date, dispatchDate));
}

/**
 * Locks every dispatch day from `from` to `to`, in date order (rows made first where missing): a
 * transaction that may book several days (a shipment's pre-orders) takes them all in the order a
 * move does, so the two never wait on each other in a circle.
 */
export async function lockDispatchRange(tx: Tx, from: string, to: string): Promise<void> {
  await tx.execute(sql`insert into dispatch_days (date, booked_boxes) select day::date, 0 from generate_series(${from}::date, ${to}::date, interval '1 day') as day on conflict (date) do nothing`);
  await tx.select({ date: dispatchDays.date }).from(dispatchDays).where(and(gte(dispatchDays.date, from), lte(dispatchDays.date, to))).orderBy(asc(dispatchDays.date)).for('update');
}

/** Locks dispatch days in date order, so two moves between the same days never wait on each other. */
export async function lockDispatchDays(tx: Tx, dates: string[]): Promise<void> {
  const unique = [...new Set(dates)].sort();
  for (const date of unique) await tx.insert(dispatchDays).values({ date, bookedBoxes: 0 }).onConflictDoNothing();
  await tx.select({ date: dispatchDays.date }).from(dispatchDays).where(inArray(dispatchDays.date, unique)).orderBy(asc(dispatchDays.date)).for('update');
}

export interface DeliveryRequest {
  settings: DeliverySettings;
  region: NzRegion;
  boxes: number;
  now: Date;
  /** What season boxes will take per dispatch day, worked out before the transaction (DeliveryService.reserved). */
  reserved?: ReadonlyMap<string, number>;
}

/** The soonest date that has room for the boxes now (seen inside `tx`), or null within the horizon. */
export async function firstFreeDate(tx: Tx, request: DeliveryRequest, notBefore?: string): Promise<{ date: string; dispatchDate: string } | null> {
  const { settings, region, boxes, now } = request;
  let from = firstPackingDay(now, settings.cutoffTime);
  if (notBefore && notBefore > from) from = notBefore;
  const booked = await bookedOrReserved(tx, settings, from, addDays(from, horizonDays), request.reserved);
  const options = deliveryOptions({ settings, region, now, booked, boxes, wanted: 1, horizonDays, notBefore: from });
  const free = options.find((option) => option.state.available);
  return free ? { date: free.date, dispatchDate: free.dispatchDate } : null;
}

/** The day boxes for `region` leave to arrive on `deliveryDate` (its lead days before), whether or not that day can be booked. */
export function dispatchDateFor(settings: DeliverySettings, region: NzRegion, deliveryDate: string): string {
  return addDays(deliveryDate, -settings.regions[region].leadDays);
}

/**
 * Checks a date the shopper chose for `region` (a delivery day there, not closed, not a holiday,
 * not passed) and claims its dispatch day's capacity in `tx`: a full day answers 409 with the
 * next free date; any other refusal is a 400 on the field.
 */
export async function bookChosenDate(tx: Tx, request: DeliveryRequest, deliveryDate: string): Promise<BookedDelivery> {
  const { settings, region, boxes, now } = request;
  const dispatchDate = dispatchDateFor(settings, region, deliveryDate);
  const refuse = (message: string) => new BadRequest(message, { deliveryDate: message });
  if (dispatchDate < firstPackingDay(now, settings.cutoffTime)) throw refuse(`${formatDay(deliveryDate)} is too soon for delivery to ${region} now. Please choose a later date.`);
  if (deliveryDate > addDays(now.toISOString().slice(0, 10), horizonDays + 7)) throw refuse('That delivery date is too far ahead. Please choose one of the dates offered.');
  const reason = whyNot({ settings, region, booked: new Map(), boxes: 0 }, deliveryDate, dispatchDate);
  if (reason === undefined) throw refuse(`We do not deliver to ${region} on ${formatDay(deliveryDate)}. Please choose one of the dates offered.`);
  if (reason !== null) throw refuse(`${formatDay(deliveryDate)} is not available (${reason}). Please choose another date.`);
  if (!(await claimDispatchDay(tx, dispatchDate, boxes, await capacityForOrders(tx, settings, dispatchDate, request.reserved)))) {
    const next = await firstFreeDate(tx, request);
    const message = next
      ? `${formatDay(deliveryDate)} is now fully booked. The next free delivery day for ${region} is ${formatDay(next.date)}.`
      : `${formatDay(deliveryDate)} is now fully booked, and we have no free delivery day for ${region} in the coming weeks.`;
    throw new Conflict(message, { deliveryDate: message }, next ? { nextDeliveryDate: next.date } : undefined);
  }
  return { deliveryDate, dispatchDate, boxes };
}
