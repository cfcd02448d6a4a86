import { desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import { earningOrderStatuses } from '../../../contracts/order';
import { centsToDollars, dollarsToCents } from '../../../contracts/money';
import {
  type AdminPromoCode,
  type AdminPromoPage,
  type PromoCodeFields,
  type PromoCodeQuery,
  type PromoCodeUpdate,
  promoRuleErrors,
  promoState,
} from '../../../contracts/promo-admin';
import type { Db, Tx } from '../../db/client';
import { orders, promoCodes, refunds } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { BadRequest, Conflict, isUniqueViolation, NotFound } from '../../lib/errors';
import { containsPattern } from '../../lib/search';

type PromoRow = typeof promoCodes.$inferSelect;

export interface Actor {
  userId: number;
  requestId: string;
}

interface PromoStats {
  /** Every order that carries the code, whatever its status: such a code is never deleted. */
  anyOrders: number;
  orderCount: number;
  revenueCents: number;
  discountCents: number;
}

const noStats: PromoStats = { anyOrders: 0, orderCount: 0, revenueCents: 0, discountCents: 0 };
const duplicateMessage = 'A promo code with this code already exists';

/** The stored row as the admin form sends it: dollars, whole percent and ISO times. */
function fieldsOf(row: PromoRow): PromoCodeFields {
  return {
    code: row.code,
    description: row.description,
    discountType: row.discountType,
    discountValue: row.discountType === 'percentage' ? row.discountValue : centsToDollars(row.discountValue),
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    minimumOrder: row.minimumOrderCents === null ? null : centsToDollars(row.minimumOrderCents),
    maxUses: row.maxUses,
    maxUsesPerCustomer: row.maxUsesPerCustomer,
    isActive: row.isActive,
  };
}

/** The fields as columns: cents for money, Dates for times. */
function columnsOf(fields: Partial<PromoCodeFields>) {
  const { discountValue, minimumOrder, startsAt, endsAt, ...rest } = fields;
  return {
    ...rest,
    ...(discountValue !== undefined && { discountValue: fields.discountType === 'fixed' ? dollarsToCents(discountValue) : discountValue }),
    ...(minimumOrder !== undefined && { minimumOrderCents: minimumOrder === null ? null : dollarsToCents(minimumOrder) }),
    ...(startsAt !== undefined && { startsAt: startsAt === null ? null : new Date(startsAt) }),
    ...(endsAt !== undefined && { endsAt: endsAt === null ? null : new Date(endsAt) }),
  };
}

function toAdminPromo(row: PromoRow, stats: PromoStats, now: Date): AdminPromoCode {
  const fields = fieldsOf(row);
  return {
    id: row.id,
    ...fields,
    usedCount: row.usedCount,
    state: promoState({ ...fields, usedCount: row.usedCount }, now),
    orderCount: stats.orderCount,
    revenue: centsToDollars(stats.revenueCents),
    discountGiven: centsToDollars(stats.discountCents),
    canDelete: row.usedCount === 0 && stats.anyOrders === 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Revenue counts the orders whose money the shop keeps (paid or further along, not refunded), net of part refunds, as the reports do. */
async function statsOf(db: Db | Tx, ids: number[]): Promise<Map<number, PromoStats>> {
  if (!ids.length) return new Map();
  const counted = inArray(orders.status, [...earningOrderStatuses]);
  const rows = await db
    .select({
      promoId: orders.promoCodeId,
      anyOrders: sql<number>`count(*)::int`,
      orderCount: sql<number>`(count(*) filter (where ${counted}))::int`,
      // Net of refunds: a claim's part refund comes off the order's total.
      revenueCents: sql<number>`(coalesce(sum(${orders.totalCents} - (select coalesce(sum(${refunds.amountCents}), 0) from ${refunds} where ${refunds.orderId} = ${orders.id})) filter (where ${counted}), 0))::bigint`,
      discountCents: sql<number>`(coalesce(sum(${orders.discountCents}) filter (where ${counted}), 0))::bigint`,
    })
    .from(orders)
    .where(inArray(orders.promoCodeId, ids))
    .groupBy(orders.promoCodeId);
  return new Map(
    rows.map((row) => [
      row.promoId!,
      { anyOrders: Number(row.anyOrders), orderCount: Number(row.orderCount), revenueCents: Number(row.revenueCents), discountCents: Number(row.discountCents) },
    ]),
  );
}

/** Turns the code's unique index tripping (two staff saving the same code at once) into the form's message. */
async function uniqueCode<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'promo_codes_code_upper_key')) throw new Conflict(duplicateMessage, { code: duplicateMessage });
    throw error;
  }
}

async function refuseTakenCode(tx: Tx, code: string, exceptId?: number): Promise<void> {
  const [taken] = await tx.select({ id: promoCodes.id }).from(promoCodes).where(eq(sql`upper(${promoCodes.code})`, code.toUpperCase()));
  if (taken && taken.id !== exceptId) throw new Conflict(duplicateMessage, { code: duplicateMessage });
}

/** Promo codes for staff: list with usage and revenue, create, edit, switch on or off, delete unused. */
export class PromoAdminService {
  constructor(private readonly db: Db) {}

  async list(query: PromoCodeQuery, now = new Date()): Promise<AdminPromoPage> {
    const where: SQL | undefined = query.q ? ilike(promoCodes.code, containsPattern(query.q)) : undefined;
    const [rows, [counted]] = await Promise.all([
      this.db.select().from(promoCodes).where(where).orderBy(desc(promoCodes.createdAt), desc(promoCodes.id)).limit(query.pageSize).offset((query.page - 1) * query.pageSize),
      this.db.select({ n: sql<number>`count(*)::int` }).from(promoCodes).where(where),
    ]);
    const stats = await statsOf(this.db, rows.map((row) => row.id));
    return {
      promoCodes: rows.map((row) => toAdminPromo(row, stats.get(row.id) ?? noStats, now)),
      total: Number(counted?.n ?? 0),
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async detail(id: number): Promise<AdminPromoCode> {
    const [row] = await this.db.select().from(promoCodes).where(eq(promoCodes.id, id));
    if (!row) throw new NotFound('Promo code not found');
    return toAdminPromo(row, (await statsOf(this.db, [id])).get(id) ?? noStats, new Date());
  }

  async create(input: PromoCodeFields, actor: Actor): Promise<AdminPromoCode> {
    const created = await uniqueCode(() =>
      this.db.transaction(async (tx) => {
        await refuseTakenCode(tx, input.code);
        const [row] = await tx.insert(promoCodes).values(columnsOf(input) as typeof promoCodes.$inferInsert).returning();
        await recordAudit(tx, { actorUserId: actor.userId, action: 'promo_code.create', entity: 'promo_code', entityId: row!.id, after: fieldsOf(row!), requestId: actor.requestId });
        return row!;
      }),
    );
    return toAdminPromo(created, noStats, new Date());
  }

  /** An edit is checked against the stored code: the rules between fields, and uses already made. */
  async update(id: number, input: PromoCodeUpdate, actor: Actor): Promise<AdminPromoCode> {
    await uniqueCode(() =>
      this.db.transaction(async (tx) => {
        // Locked like an order claiming a use locks it, so the used count cannot move meanwhile.
        const [before] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update');
        if (!before) throw new NotFound('Promo code not found');
        const merged: PromoCodeFields = { ...fieldsOf(before), ...input };
        const problems = promoRuleErrors(merged);
        if (merged.maxUses !== null && merged.maxUses < before.usedCount) {
          problems.maxUses = `Total uses cannot be below the ${before.usedCount} uses made so far`;
        }
        const first = Object.values(problems)[0];
        if (first) throw new BadRequest(first, problems);
        if (input.code !== undefined) await refuseTakenCode(tx, input.code, id);
        // The value is stored in the unit of the merged type, so both travel together.
        const columns = columnsOf({ ...input, discountType: merged.discountType, discountValue: merged.discountValue });
        const [after] = await tx
          .update(promoCodes)
          .set({ ...columns, updatedAt: sql`now()` })
          .where(eq(promoCodes.id, id))
          .returning();
        const toggled = Object.keys(input).length === 1 && input.isActive !== undefined;
        await recordAudit(tx, {
          actorUserId: actor.userId,
          action: toggled ? (input.isActive ? 'promo_code.activate' : 'promo_code.deactivate') : 'promo_code.update',
          entity: 'promo_code',
          entityId: id,
          before: fieldsOf(before),
          after: fieldsOf(after!),
          requestId: actor.requestId,
        });
      }),
    );
    return this.detail(id);
  }

  /** Orders keep the code they were placed with: a code any order used is switched off, never deleted. */
  async remove(id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update');
      if (!before) throw new NotFound('Promo code not found');
      const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.promoCodeId, id));
      if (before.usedCount > 0 || Number(used?.n ?? 0) > 0) {
        throw new Conflict(`${before.code} has been used on orders, so it cannot be deleted. Switch it off instead.`);
      }
      await tx.delete(promoCodes).where(eq(promoCodes.id, id));
      await recordAudit(tx, { actorUserId: actor.userId, action: 'promo_code.delete', entity: 'promo_code', entityId: id, before: fieldsOf(before), requestId: actor.requestId });
    });
  }
}
