import { and, asc, eq, isNotNull, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { addDays, nzToday, nzWallTime } from '../../../contracts/dates';
import type { Db, Tx } from '../../db/client';
import { orderLines, orders, products, reviewMailLinks, reviews, users } from '../../db/schema';
import type { MailMessage } from '../../lib/mail';
import { composeMail } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import { OptOutLinks, type OptOutLinksOn } from '../../lib/opt-out-links';

/** The e-mail goes out from this hour (NZ) of its day. */
const inviteHour = 10;
/** An e-mail the shop could not send within this many days of its day (the shop was down) is passed over. */
const staleAfterDays = 7;
export const reviewOptOutPath = '/api/review-mail/opt-out';
/** The opt-out links of the "How were your mangoes?" e-mails. */
const reviewOptOut = new OptOutLinks({ table: reviewMailLinks, off: 'reviewMailOffAt', path: reviewOptOutPath });

/** Where a mail's "Review" button goes: the product page's form (it asks a signed-out shopper to sign in). */
export const reviewFormPath = (productId: number) => `/product/${productId}?review=write#write-review`;

/**
 * When an order is delivered or collected: the day its fruit should be ready to eat (that day, or
 * the first ready day of its lines when later) is kept, and the e-mail goes a few days after it.
 */
export async function planReviewMail(tx: Tx, orderId: number, today: string): Promise<void> {
  const [ready] = await tx
    .select({ from: sql<string | null>`max(${orderLines.readyFrom})::text` })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));
  const from = ready?.from && ready.from > today ? ready.from : today;
  await tx.update(orders).set({ reviewMailFrom: from, reviewMailDoneAt: null }).where(and(eq(orders.id, orderId), isNull(orders.reviewMailDoneAt)));
}

export interface ReviewInviteDeps {
  db: Db;
  clock: () => Date;
  publicUrl: string;
  shop: () => Promise<{ siteName: string; reviewMailDays: number }>;
}

/** "How were your mangoes?": the e-mail once per delivered order, asking for reviews of what it had. */
export function reviewInviteMail(mail: { to: string; firstName: string; orderNumber: string; products: { name: string; url: string }[]; optOutUrl: string; siteName: string }): MailMessage {
  return composeMail({
    to: mail.to,
    subject: 'How were your mangoes?',
    preview: `Tell other shoppers how the mangoes from order ${mail.orderNumber} were.`,
    greeting: `Kia ora ${mail.firstName},`,
    parts: [
      `We hope you enjoyed the mangoes from order ${mail.orderNumber}. How were they? A few words help other shoppers choose, and help us pick the best fruit next time.`,
      'Only shoppers who bought the mangoes can review them, and every review is published as written, whatever its stars.',
      '',
      ...mail.products.flatMap((product) => [{ kind: 'button' as const, label: `Review ${product.name}`, href: product.url }]),
      '',
      { kind: 'link', label: 'No more review requests, thanks', href: mail.optOutUrl },
    ],
    siteName: mail.siteName,
    // RFC 8058: mail clients offer their own unsubscribe button, which POSTs to the link.
    headers: { 'List-Unsubscribe': `<${mail.optOutUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  });
}

/** The "How were your mangoes?" e-mails: each delivered order's once, across processes. */
export class ReviewInvites {
  /** The opt-out links in these e-mails: the mail's page checks and uses them; housekeeping purges them. */
  readonly optOutLinks: OptOutLinksOn;

  constructor(private readonly deps: ReviewInviteDeps) {
    this.optOutLinks = reviewOptOut.on(deps.db);
  }

  /**
   * Queues the e-mails due by the shop's clock (from 10 am NZ): the days the settings say after an
   * order's ready day, or up to a week late after the shop was down; later ones are passed over.
   * Each order is locked and re-checked, so of several processes sweeping at once one sends it.
   */
  async sendDue(stop?: AbortSignal): Promise<number> {
    const now = this.deps.clock();
    const today = nzToday(now);
    const { db } = this.deps;
    const shop = await this.deps.shop();
    const readyBy = addDays(today, -shop.reviewMailDays);
    await db
      .update(orders)
      .set({ reviewMailDoneAt: sql`now()` })
      .where(and(isNotNull(orders.reviewMailFrom), isNull(orders.reviewMailDoneAt), lt(orders.reviewMailFrom, addDays(readyBy, -staleAfterDays))));
    if (Number(nzWallTime(now).slice(11, 13)) < inviteHour) return 0;
    const due = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(isNotNull(orders.reviewMailFrom), isNull(orders.reviewMailDoneAt), lte(orders.reviewMailFrom, readyBy), eq(orders.status, 'delivered')))
      .orderBy(asc(orders.reviewMailFrom), asc(orders.id))
      .limit(200);
    let queued = 0;
    for (const { id } of due) {
      if (stop?.aborted) break;
      if (await this.sendOne(id, readyBy, shop.siteName)) queued += 1;
    }
    return queued;
  }

  private sendOne(orderId: number, readyBy: string, siteName: string): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), isNull(orders.reviewMailDoneAt), lte(orders.reviewMailFrom, readyBy), eq(orders.status, 'delivered')))
        .for('update', { skipLocked: true });
      if (!order) return false;
      await tx.update(orders).set({ reviewMailDoneAt: sql`now()` }).where(eq(orders.id, orderId));
      const [customer] = await tx.select().from(users).where(eq(users.id, order.userId));
      if (!customer || customer.reviewMailOffAt) return false;
      // The order's products still on sale that its shopper has not reviewed yet.
      const toReview = await tx
        .selectDistinct({ id: products.id, name: products.name })
        .from(orderLines)
        .innerJoin(products, eq(products.id, orderLines.productId))
        .where(
          and(
            eq(orderLines.orderId, orderId),
            eq(products.isHidden, false),
            notExists(
              tx
                .select({ one: sql`1` })
                .from(reviews)
                .where(and(eq(reviews.productId, products.id), eq(reviews.userId, customer.id))),
            ),
          ),
        )
        .orderBy(asc(products.name));
      if (!toReview.length) return false;
      await queueMail(
        tx,
        reviewInviteMail({
          to: customer.email,
          firstName: customer.firstName,
          orderNumber: order.number,
          products: toReview.map((product) => ({ name: product.name, url: `${this.deps.publicUrl}${reviewFormPath(product.id)}` })),
          optOutUrl: await reviewOptOut.make(tx, customer.id, this.deps.publicUrl),
          siteName,
        }),
      );
      return true;
    });
  }
}
