import { sql } from 'drizzle-orm';
import { type Tx, queryRows } from '../../db/client';
import { queueMail } from '../../lib/mail-outbox';
import { hashToken, newToken } from '../../lib/tokens';
import { manageLinkPath } from './links';
import { openingMovedMail } from './mail';

/**
 * Staff set or moved when a product's pre-orders open: each confirmed subscriber who does not know
 * the time yet hears it, once, in the order they joined. Part of the waitlist sweep, a batch per
 * transaction under its lock, so a product's update never waits for a long list to be mailed.
 * Each mail's link is the entry's newest manage link: it lets the subscriber leave the list (an
 * earlier link to the entry stops working). Answers the mails queued.
 */
export async function tellNewOpenings(tx: Tx, now: Date, publicUrl: string, limit: number): Promise<number> {
  const due = await queryRows<{ id: number; email: string; product_id: number; name: string; opens_at: Date | string }>(tx, sql`
    select e.id, coalesce(u.email, e.email) as email, p.id as product_id, p.name, p.pre_orders_open_at as opens_at
    from waitlist_entries e
    join products p on p.id = e.product_id
    left join users u on u.id = e.user_id
    where e.confirmed_at is not null and e.notified_at is null and e.cancelled_at is null
      and p.is_pre_order and not p.is_hidden and p.pre_orders_open_at > ${now.toISOString()}::timestamptz
      and e.told_opening_at is distinct from p.pre_orders_open_at
    order by e.created_at, e.id
    limit ${limit}
    for update of e skip locked`);
  for (const entry of due) {
    const token = newToken();
    const opensAt = new Date(entry.opens_at);
    await tx.execute(sql`
      update waitlist_entries set told_opening_at = ${opensAt.toISOString()}::timestamptz, manage_token_hash = ${hashToken(token)}, manage_token_sent_at = now()
      where id = ${entry.id}`);
    await queueMail(
      tx,
      openingMovedMail({
        to: entry.email,
        productName: entry.name,
        opensAt: opensAt.toISOString(),
        productUrl: `${publicUrl}/product/${entry.product_id}`,
        leaveUrl: `${publicUrl}${manageLinkPath(token)}`,
      }),
    );
  }
  return due.length;
}

/**
 * An opening moved ahead again after it had passed: the subscribers mailed "open" at it are put
 * back on the list (one entry per address), to hear the new time and be told again when it opens.
 */
export async function rearmAfterPostponement(tx: Tx, productId: number, previousOpening: Date): Promise<void> {
  await tx.execute(sql`
    update waitlist_entries e set notified_at = null, told_opening_at = null
    where e.id in (
      select distinct on (lower(w.email)) w.id from waitlist_entries w
      where w.product_id = ${productId} and w.cancelled_at is null and w.notified_at >= ${previousOpening.toISOString()}::timestamptz
        and not exists (
          select 1 from waitlist_entries o
          where o.product_id = w.product_id and lower(o.email) = lower(w.email) and o.notified_at is null and o.cancelled_at is null)
      order by lower(w.email), w.notified_at desc, w.id desc)`);
}
