import { and, asc, desc, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import type { CustomerDetail, CustomerPage, CustomerQuery, CustomerRow } from '../../../contracts/customers';
import { centsToDollars } from '../../../contracts/money';
import type { Db } from '../../db/client';
import { orders, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { Conflict, NotFound } from '../../lib/errors';
import { containsPattern } from '../../lib/search';
import { orderSummaries } from '../orders/view';
import { earningOrderStatuses } from '../../../contracts/order';

// Written out with an alias: in a select from users alone, drizzle leaves column names unqualified.
/** What the customer has paid: orders paid or further along, not refunded (as revenue in the reports). */
const spent = sql<number>`coalesce((select sum(o.total_cents) from orders o where o.user_id = "users"."id" and o.status in (${sql.join(
  earningOrderStatuses.map((status) => sql`${status}`),
  sql`, `,
)})), 0)::int`;
const orderCount = sql<number>`(select count(*) from orders o where o.user_id = "users"."id")::int`;
const columns = { user: users, spentCents: spent, orderCount };

function toRow({ user, spentCents, orderCount: count }: { user: typeof users.$inferSelect; spentCents: number; orderCount: number }): CustomerRow {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`.trim(),
    phone: user.phone,
    isAdmin: user.isAdmin,
    joinedAt: user.createdAt.toISOString(),
    orderCount: Number(count),
    lifetimeSpend: centsToDollars(Number(spentCents)),
  };
}

function searchOf(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = containsPattern(q);
  return or(ilike(users.email, pattern), ilike(users.username, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern), ilike(users.phone, pattern));
}

/** Customers for staff: search, order counts, lifetime spend, addresses and the admin role. */
export class CustomerService {
  constructor(private readonly db: Db) {}

  async list(query: CustomerQuery): Promise<CustomerPage> {
    const where = searchOf(query.q);
    const [rows, [counted]] = await Promise.all([
      this.db.select(columns).from(users).where(where).orderBy(desc(users.createdAt), desc(users.id)).limit(query.pageSize).offset((query.page - 1) * query.pageSize),
      this.db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
    ]);
    return { customers: rows.map(toRow), total: Number(counted?.n ?? 0), page: query.page, pageSize: query.pageSize };
  }

  async detail(id: number): Promise<CustomerDetail> {
    const [row] = await this.db.select(columns).from(users).where(eq(users.id, id));
    if (!row) throw new NotFound('Customer not found');
    const placed = await this.db.select().from(orders).where(eq(orders.userId, id)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(500);
    const seen = new Set<string>();
    const shippingAddresses = placed
      .map((order) => ({ name: order.shipName, phone: order.shipPhone, street: order.shipStreet, suburb: order.shipSuburb, city: order.shipCity, postcode: order.shipPostcode, region: order.shipRegion }))
      .filter((address) => {
        const key = JSON.stringify(address);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    const { user } = row;
    return {
      ...toRow(row),
      profileAddress: { address: user.address, city: user.city, postalCode: user.postalCode, region: user.region },
      shippingAddresses,
      orders: await orderSummaries(this.db, placed),
    };
  }

  /**
   * Grants or removes the admin role. The admins' rows are locked first, so two staff removing
   * each other at once still leave one admin.
   */
  async setAdmin(id: number, isAdmin: boolean, actor: { userId: number; requestId: string }): Promise<CustomerDetail> {
    await this.db.transaction(async (tx) => {
      const admins = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.id)).for('update');
      const [target] = await tx.select().from(users).where(eq(users.id, id)).for('update');
      if (!target) throw new NotFound('Customer not found');
      if (target.isAdmin === isAdmin) return;
      if (!isAdmin && admins.filter((admin) => admin.id !== id).length === 0) {
        throw new Conflict('The shop needs at least one admin: make someone else an admin first.', { isAdmin: 'The last admin cannot be removed' });
      }
      await tx.update(users).set({ isAdmin, updatedAt: sql`now()` }).where(and(eq(users.id, id), ne(users.isAdmin, isAdmin)));
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: isAdmin ? 'customer.grant_admin' : 'customer.remove_admin',
        entity: 'user',
        entityId: id,
        before: { isAdmin: target.isAdmin },
        after: { isAdmin },
        requestId: actor.requestId,
      });
    });
    return this.detail(id);
  }
}

