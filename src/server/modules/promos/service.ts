import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { ActivePromo } from '../../../contracts/content';
import { centsToDollars } from '../../../contracts/money';
import type { Db } from '../../db/client';
import { promoCodes } from '../../db/schema';

type PromoRow = typeof promoCodes.$inferSelect;

/** Spec 3's promo code; a fixed discount travels in dollars like every other price. */
export function toActivePromo(row: PromoRow): ActivePromo {
  return {
    id: row.id,
    code: row.code,
    discountType: row.discountType,
    discountValue: row.discountType === 'percentage' ? row.discountValue : centsToDollars(row.discountValue),
    description: row.description,
    minimumOrder: row.minimumOrderCents === null ? null : centsToDollars(row.minimumOrderCents),
    endsAt: row.endsAt?.toISOString() ?? null,
  };
}

/** The banner's offers and how long they stay as they are. */
export interface ActivePromos {
  active: ActivePromo[];
  /** Seconds until a switched-on code starts or ends (the banner changes then), or null when none will. */
  secondsToNextChange: number | null;
}

/**
 * Active: switched on, inside its date window, and with uses left. One query reads every switched-on
 * code that has not ended, with the database's clock, so the list and the instant it next changes
 * agree on what "now" is.
 */
export async function listActivePromos(db: Db): Promise<ActivePromos> {
  const rows = await db
    .select({ promo: promoCodes, nowMs: sql<string>`extract(epoch from now()) * 1000` })
    .from(promoCodes)
    .where(and(eq(promoCodes.isActive, true), or(isNull(promoCodes.endsAt), gt(promoCodes.endsAt, sql`now()`))))
    .orderBy(asc(promoCodes.id));
  const active: ActivePromo[] = [];
  let nextChangeMs = Number.POSITIVE_INFINITY;
  for (const { promo, nowMs } of rows) {
    const now = Number(nowMs);
    const startsAt = promo.startsAt?.getTime() ?? null;
    const endsAt = promo.endsAt?.getTime() ?? null;
    if (startsAt !== null && startsAt > now) nextChangeMs = Math.min(nextChangeMs, startsAt - now);
    else {
      if (endsAt !== null) nextChangeMs = Math.min(nextChangeMs, endsAt - now);
      if (promo.maxUses === null || promo.usedCount < promo.maxUses) active.push(toActivePromo(promo));
    }
  }
  return { active, secondsToNextChange: Number.isFinite(nextChangeMs) ? nextChangeMs / 1000 : null };
}
