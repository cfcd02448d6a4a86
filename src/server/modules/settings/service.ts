import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { centsToDollars } from '../../../contracts/money';
import { shopRules } from '../../../contracts/shop-rules';
import { type PublicSettings, type StoredSettings, storedSettingsSchema } from '../../../contracts/settings';
import type { Db } from '../../db/client';
import { siteSettings } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { type CacheBus, CachedValue } from '../../lib/cache-bus';
import { defaultSettings } from './defaults';

/** Site settings: one validated object, cached in-process, invalidated across processes on write. */
export class SettingsService {
  private readonly cache: CachedValue<{ stored: StoredSettings; publicJson: string; public: PublicSettings }>;

  constructor(
    private readonly db: Db,
    private readonly bus: CacheBus,
  ) {
    this.cache = new CachedValue(async () => {
      const stored = await this.load();
      const publicView = toPublic(stored);
      return { stored, public: publicView, publicJson: JSON.stringify(publicView) };
    });
    bus.on('settings', () => this.cache.invalidate());
  }

  async stored(): Promise<StoredSettings> {
    return (await this.cache.get()).stored;
  }

  async publicJson(): Promise<string> {
    return (await this.cache.get()).publicJson;
  }

  async publicView(): Promise<PublicSettings> {
    return (await this.cache.get()).public;
  }

  async update(next: StoredSettings, actor: { userId: number; requestId: string }): Promise<StoredSettings> {
    const before = await this.load();
    await this.db.transaction(async (tx) => {
      await tx
        .insert(siteSettings)
        .values({ id: 1, data: next })
        .onConflictDoUpdate({ target: siteSettings.id, set: { data: next, updatedAt: sql`now()` } });
      await recordAudit(tx, { actorUserId: actor.userId, action: 'settings.update', entity: 'settings', entityId: 1, before, after: next, requestId: actor.requestId });
    });
    await this.bus.publish('settings');
    return next;
  }

  /** Stored settings merged over the defaults, so a field added later always has a value. */
  private async load(): Promise<StoredSettings> {
    const rows = await this.db.select().from(siteSettings).limit(1);
    return readStoredSettings(rows[0]?.data);
  }
}

/** One stored value, or its default; a group (contact, bank details) keeps its good parts. */
function readField(schema: z.ZodType, value: unknown, fallback: unknown): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  if (!(schema instanceof z.ZodObject) || typeof value !== 'object' || value === null) return fallback;
  const parts = value as Record<string, unknown>;
  const defaults = fallback as Record<string, unknown>;
  return Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, part]) => [key, readField(part, parts[key], defaults[key])]));
}

/**
 * The stored object, checked field by field: a value that today's rules refuse (saved under older,
 * looser ones) falls back to its default alone, never taking the shop's other settings with it.
 */
export function readStoredSettings(data: unknown): StoredSettings {
  const stored = (data ?? {}) as Record<string, unknown>;
  const merged = { ...defaultSettings, ...stored };
  const whole = storedSettingsSchema.safeParse(merged);
  if (whole.success) return whole.data;
  const fields = Object.fromEntries(
    (Object.keys(defaultSettings) as Array<keyof StoredSettings>).map((key) => [key, readField(storedSettingsSchema.shape[key], merged[key], defaultSettings[key])]),
  );
  const repaired = storedSettingsSchema.safeParse(fields);
  // Opening hours that only fail together (closing before opening) go back to the defaults together.
  return repaired.success ? repaired.data : { ...(fields as StoredSettings), openingTime: defaultSettings.openingTime, closingTime: defaultSettings.closingTime };
}

function toPublic(stored: StoredSettings): PublicSettings {
  const message = stored.maintenance.message || shopRules.maintenanceDefaultMessage;
  return {
    siteName: stored.siteName,
    contact: stored.contact,
    socialMedia: stored.socialMedia,
    maintenance: { enabled: stored.maintenance.enabled, message },
    maintenance_mode_enabled: stored.maintenance.enabled,
    maintenance_message: message,
    openingTime: stored.openingTime,
    closingTime: stored.closingTime,
    daysOpen: stored.daysOpen,
    analytics: stored.analytics,
    gstNumber: stored.gstNumber,
    bankTransfer: stored.bankTransfer,
    shipping: centsToDollars(stored.shippingCents),
  };
}
