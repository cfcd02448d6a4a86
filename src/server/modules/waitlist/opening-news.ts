import { sql } from 'drizzle-orm';
import { type Tx, queryRows } from '../../db/client';
import { queueMail } from '../../lib/mail-outbox';
import { hashToken, newToken } from '../../lib/tokens';
import { openingMovedMail } from './mail';
import { manageLinkPath } from './links';

export interface OpeningNews {
  productId: number;
  productName: string;
  /** The new opening (ISO). */
  opensAt: string;
  publicUrl: string;
}

/**
 * Staff set or moved when a product's pre-orders open: everyone confirmed on its waitlist hears
 * the new time, once, in the order they joined. Called in the transaction that writes the time,
 * so the news and the change commit together. Each mail's link is the entry's newest manage link:
 * it lets the subscriber leave the list (an earlier link to the entry stops working).
 */
export async function tellNewOpening(tx: Tx, news: OpeningNews): Promise<number> {
  const entries = await queryRows<{ id: number; email: string }>(tx, sql`
    select e.id, coalesce(u.email, e.email) as email from waitlist_entries e left join users u on u.id = e.user_id
    where e.product_id = ${news.productId} and e.confirmed_at is not null and e.notified_at is null and e.cancelled_at is null
    order by e.created_at, e.id
    for update of e`);
  for (const entry of entries) {
    const token = newToken();
    await tx.execute(sql`update waitlist_entries set manage_token_hash = ${hashToken(token)}, manage_token_sent_at = now() where id = ${entry.id}`);
    await queueMail(
      tx,
      openingMovedMail({
        to: entry.email,
        productName: news.productName,
        opensAt: news.opensAt,
        productUrl: `${news.publicUrl}/product/${news.productId}`,
        leaveUrl: `${news.publicUrl}${manageLinkPath(token)}`,
      }),
    );
  }
  return entries.length;
}
