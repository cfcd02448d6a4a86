import { and, asc, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { ActivePromo } from '../../../contracts/content';
import { centsToDollars } from '../../../contracts/money';
import { type Db, queryRows } from '../../db/client';
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

/** Active: switched on, inside its date window, and with uses left. */
export async function listActivePromos(db: Db): Promise<ActivePromo[]> {
  const rows = await db
    .select()
    .from(promoCodes)
    .where(
      and(
        eq(promoCodes.isActive, true),
        or(isNull(promoCodes.startsAt), lte(promoCodes.startsAt, sql`now()`)),
        or(isNull(promoCodes.endsAt), gt(promoCodes.endsAt, sql`now()`)),
        or(isNull(promoCodes.maxUses), lt(promoCodes.usedCount, promoCodes.maxUses)),
      ),
    )
    .orderBy(asc(promoCodes.id));
  return rows.map(toActivePromo);
}

/** Seconds until an active code starts or ends (the banner changes then), or null when none will. */
export async function secondsToNextPromoChange(db: Db): Promise<number | null> {
  const [row] = await queryRows<{ seconds: number | string | null }>(
    db,
    sql`select extract(epoch from least(min(${promoCodes.startsAt}) filter (where ${promoCodes.startsAt} > now()), min(${promoCodes.endsAt}) filter (where ${promoCodes.endsAt} > now())) - now()) as seconds
        from ${promoCodes} where ${promoCodes.isActive}`,
  );
  return row?.seconds === null || row?.seconds === undefined ? null : Number(row.seconds);
}
