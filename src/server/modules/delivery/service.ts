import { and, gte, lte, sql } from 'drizzle-orm';
import { addDays } from '../../../contracts/dates';
import { defaultDeliverySettings, type DeliveryDayOption, type DeliverySettings, deliverySettingsSchema } from '../../../contracts/delivery';
import type { NzRegion } from '../../../contracts/order';
import type { Db, Tx } from '../../db/client';
import { deliverySettings, dispatchDays } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { type CacheBus, CachedValue } from '../../lib/cache-bus';
import { deliveryOptions, firstPackingDay } from './calendar';

/** How far ahead checkout looks for delivery dates. */
const horizonDays = 90;

/**
 * Delivery settings (one validated object, cached in each process and dropped on every write
 * through the bus) and the dates offered to a region with the boxes already booked.
 */
export class DeliveryService {
  private readonly cache: CachedValue<DeliverySettings>;

  constructor(
    private readonly db: Db,
    private readonly bus: CacheBus,
  ) {
    this.cache = new CachedValue(() => this.load());
    // Delivery settings change with the shop's settings: one topic tells every process.
    bus.on('settings', () => this.cache.invalidate());
  }

  settings(): Promise<DeliverySettings> {
    return this.cache.get();
  }

  async update(next: DeliverySettings, actor: { userId: number; requestId: string }): Promise<DeliverySettings> {
    const sorted = { ...next, closedDates: [...next.closedDates].sort((a, b) => a.date.localeCompare(b.date)), capacityOverrides: [...next.capacityOverrides].sort((a, b) => a.date.localeCompare(b.date)) };
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(deliverySettings).for('update');
      await tx
        .insert(deliverySettings)
        .values({ id: 1, data: sorted })
        .onConflictDoUpdate({ target: deliverySettings.id, set: { data: sorted, updatedAt: sql`now()` } });
      await recordAudit(tx, { actorUserId: actor.userId, action: 'delivery.update', entity: 'settings', entityId: 'delivery', before: before?.data ?? null, after: sorted, requestId: actor.requestId });
    });
    await this.bus.publish('settings');
    return sorted;
  }

  /** The dates checkout offers to `region` for an order of `boxes`, at `now`. */
  async options(region: NzRegion, boxes: number, now = new Date(), db: Db | Tx = this.db): Promise<DeliveryDayOption[]> {
    const settings = await this.settings();
    const from = firstPackingDay(now, settings.cutoffTime);
    const booked = await bookedBetween(db, from, addDays(from, horizonDays));
    return deliveryOptions({ settings, region, now, booked, boxes, wanted: 10, horizonDays });
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
