import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { type Database, type Db, queryRows } from '../db/client';

/**
 * What must hold in the database whatever happened to the process or the network: every order
 * whole, stock equal to the sum of its movements, and one confirmation mail queued per order.
 */
export interface ShopConsistency {
  orders: Array<{ id: number; number: string }>;
  /** Products whose stock is not the sum of their movements. */
  stockDrift: Array<{ id: number; stock: number; moved: number }>;
  /** Orders with no lines, or whose in-stock lines do not match the stock their placement took (pre-orders take none). */
  halfOrders: string[];
  /** Order numbers with other than exactly one confirmation mail in the outbox (a claim's replacement has its own mail). */
  confirmationMismatch: Array<{ number: string; mails: number }>;
  /** Dispatch days whose booked boxes are not the boxes their orders hold. */
  capacityDrift: Array<{ date: string; booked: number; held: number }>;
  /** Batches whose boxes left are not the sum of their movements. */
  batchDrift: Array<{ id: number; left: number; moved: number }>;
  /**
   * Products whose batches do not hold what the cool room should: their stock plus the boxes of
   * orders placed and not packed yet (decision 0026).
   */
  coolRoomDrift: Array<{ id: number; inBatches: number; stock: number; held: number }>;
  /** Mails not sent yet (not counting ones given up). */
  unsentMail: number;
  failedMail: number;
}

export async function shopConsistency(db: Db): Promise<ShopConsistency> {
  const orders = await queryRows<{ id: number; number: string }>(db, sql`select id, number from orders order by id`);
  const stockDrift = await queryRows<{ id: number; stock: number; moved: number }>(
    db,
    sql`select p.id, p.stock, coalesce(sum(m.change), 0)::int as moved
        from products p left join stock_movements m on m.product_id = p.id
        group by p.id having p.stock <> coalesce(sum(m.change), 0)`,
  );
  const halfOrders = await queryRows<{ number: string }>(
    db,
    sql`select o.number from orders o
        where not exists (select 1 from order_lines l where l.order_id = o.id)
           or (select coalesce(sum(l.quantity), 0) from order_lines l where l.order_id = o.id and not l.is_pre_order)
              <> (select coalesce(-sum(m.change), 0) from stock_movements m where m.order_id = o.id and m.reason = 'order')`,
  );
  const confirmationMismatch = await queryRows<{ number: string; mails: number }>(
    db,
    sql`select o.number, (select count(*)::int from mail_outbox b where b.subject like 'Your order ' || o.number || ' at %') as mails
        from orders o where o.payment_method <> 'no_charge'`,
  );
  const capacityDrift = await queryRows<{ date: string; booked: number; held: number }>(
    db,
    sql`select coalesce(d.date, o.dispatch_date)::text as date, coalesce(d.booked_boxes, 0)::int as booked, coalesce(o.held, 0)::int as held
        from dispatch_days d
        full join (select dispatch_date, sum(delivery_boxes) as held from orders where dispatch_date is not null group by dispatch_date) o on o.dispatch_date = d.date
        where coalesce(d.booked_boxes, 0) <> coalesce(o.held, 0)`,
  );
  const batchDrift = await queryRows<{ id: number; left: number; moved: number }>(
    db,
    sql`select b.id, b.boxes_left as left, coalesce(sum(m.change), 0)::int as moved
        from stock_batches b left join batch_movements m on m.batch_id = b.id
        group by b.id having b.boxes_left <> coalesce(sum(m.change), 0)`,
  );
  const coolRoomDrift = await queryRows<{ id: number; inBatches: number; stock: number; held: number }>(
    db,
    sql`select p.id, coalesce(b.boxes, 0)::int as "inBatches", p.stock, coalesce(h.boxes, 0)::int as held
        from products p
        left join (select product_id, sum(boxes_left) as boxes from stock_batches group by product_id) b on b.product_id = p.id
        left join (select l.product_id, sum(l.quantity - l.recalled_boxes) as boxes from order_lines l join orders o on o.id = l.order_id
                   where o.status in ('pending_payment', 'paid') and (not l.is_pre_order or l.allocated_at is not null) group by l.product_id) h on h.product_id = p.id
        where coalesce(b.boxes, 0) <> p.stock + coalesce(h.boxes, 0)`,
  );
  const [mail] = await queryRows<{ unsent: number; failed: number }>(
    db,
    sql`select count(*) filter (where sent_at is null and failed_at is null)::int as unsent, count(*) filter (where failed_at is not null)::int as failed from mail_outbox`,
  );
  return {
    orders,
    stockDrift,
    halfOrders: halfOrders.map((row) => row.number),
    confirmationMismatch: confirmationMismatch.filter((row) => row.mails !== 1),
    capacityDrift,
    batchDrift,
    coolRoomDrift,
    unsentMail: mail!.unsent,
    failedMail: mail!.failed,
  };
}

/**
 * Checks a stopped shop's database: every order answered 201 is there and whole, stock is the
 * sum of its movements, and each order has one confirmation mail. Closes the database; returns
 * the state for further checks.
 */
export async function expectWholeShop(database: Database, placed: string[]): Promise<ShopConsistency> {
  try {
    const state = await shopConsistency(database.db);
    expect(state.orders.map((o) => o.number)).toEqual(expect.arrayContaining(placed));
    expect(state.halfOrders).toEqual([]);
    expect(state.stockDrift).toEqual([]);
    expect(state.confirmationMismatch).toEqual([]);
    expect(state.capacityDrift).toEqual([]);
    expect(state.batchDrift).toEqual([]);
    expect(state.coolRoomDrift).toEqual([]);
    return state;
  } finally {
    await database.close();
  }
}
