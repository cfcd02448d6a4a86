import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { opensLater, waitlistOpen } from '../../../contracts/availability';
import type { Product } from '../../../contracts/product';
import type { joinWaitlistSchema, WaitlistCount, WaitlistEntryView, WaitlistJoinAnswer } from '../../../contracts/waitlist';
import { type Db, queryRows, type Tx } from '../../db/client';
import { Conflict, fieldError } from '../../lib/errors';
import { csvDocument } from '../../lib/csv';
import { queueMail } from '../../lib/mail-outbox';
import type { RateLimiter } from '../../lib/rate-limit';
import { hashToken, newToken } from '../../lib/tokens';
import type { UserRow } from '../auth/user-view';
import type { CatalogService } from '../catalog/service';
import { buyableAt } from '../orders/waiting-pre-orders';
import { manageLinkPath, unsubscribeLinkPath } from './links';
import { tellNewOpenings } from './opening-news';
import { alreadyOnListMail, backMail, confirmMail } from './mail';

const hourMs = 60 * 60 * 1000;
/** Generous for a household behind one IP, small enough that nobody floods inboxes through us. */
const joinsPerIpPerHour = 20;
/** A signed-in shopper's clicks: more than anyone needs for a season's varieties. */
const joinsPerShopperPerHour = 30;
/** Mails one address may be sent by visitors' sign-ups in an hour, whatever the product. */
const mailsPerAddressPerHour = 3;
/** A visitor's link confirms for a week; an entry not confirmed by then is deleted by housekeeping. */
export const confirmLinkValidMs = 7 * 24 * hourMs;
/** Entries a sweep takes in one transaction. */
const sweepBatch = 100;
/** The sweep's advisory lock: one process at a time mails, so mail goes out in the order people joined. */
const sweepLockKey = 0x6d616e67;

const active = sql`notified_at is null and cancelled_at is null`;

export interface WaitlistDeps {
  db: Db;
  limiter: RateLimiter;
  catalog: CatalogService;
  /** Where links in e-mails point (PUBLIC_URL, or this server on localhost). */
  publicUrl: string;
  /** The shop's clock: pre-orders open by it. */
  clock: () => Date;
}

/** What a mailed link's token stands for, read without changing anything (mail scanners open links). */
export type ManageLinkState =
  | { state: 'confirm' | 'waiting' | 'notified'; productId: number; productName: string }
  | { state: 'invalid' };

/**
 * "Notify me": sign-ups for products that cannot be bought now, and the mail, sent once per entry
 * and in the order people joined, when a product can be bought again (decision 0016).
 */
export class WaitlistService {
  constructor(private readonly deps: WaitlistDeps) {}

  async join(input: z.output<typeof joinWaitlistSchema>, user: UserRow | null, ip: string): Promise<WaitlistJoinAnswer> {
    const { db, limiter } = this.deps;
    // Counted before anything else is read or written, so a flood costs us one statement each. A
    // shopper is counted by account (many share a network), a visitor by network.
    await limiter.consume(
      user ? { key: `waitlist:user:${user.id}`, max: joinsPerShopperPerHour, windowMs: hourMs } : { key: `waitlist:ip:${ip}`, max: joinsPerIpPerHour, windowMs: hourMs },
      'Too many waitlist sign-ups. Please try again in an hour.',
    );
    const product = await this.deps.catalog.findOne(input.productId, false);
    const now = this.deps.clock().getTime();
    if (!waitlistOpen(product, now)) {
      const message = `${product.name} can be ${product.isPreOrder ? 'pre-ordered' : 'bought'} now: add it to your cart.`;
      throw new Conflict(message, { productId: message });
    }
    // The opening the page showed: the sign-up knows that time, and hears only of a later change.
    const shownOpening = opensLater(product, now) ? sql`${product.preOrdersOpenAt}::timestamptz` : sql`null`;
    if (user?.emailProvenAt) {
      const email = user.email.toLowerCase();
      // One statement: of two clicks at once, one inserts and the other finds its entry. The
      // account has shown it reads this address, so a visitor's entry for it becomes the account's.
      const [row] = await queryRows<{ was_confirmed: boolean }>(db, sql`
        with before as (
          select confirmed_at from waitlist_entries where product_id = ${product.id} and lower(email) = ${email} and ${active}
        )
        insert into waitlist_entries (product_id, user_id, email, confirmed_at, told_opening_at) values (${product.id}, ${user.id}, ${email}, now(), ${shownOpening})
        on conflict (product_id, lower(email)) where ${active} do update set
          user_id = excluded.user_id, confirmed_at = coalesce(waitlist_entries.confirmed_at, now())
        returning exists (select 1 from before where confirmed_at is not null) as was_confirmed`);
      return row?.was_confirmed
        ? { state: 'already subscribed', message: `You are already on the waitlist for ${product.name}. We will e-mail you ${whenTold(product, now)}.` }
        : { state: 'subscribed', message: `You are on the waitlist for ${product.name}. We will e-mail you ${whenTold(product, now)}.` };
    }
    // A visitor, or an account that has never shown it reads its address (anyone can register
    // with any address): the address confirms by the mailed link, as double opt-in asks.
    const email = user ? user.email.toLowerCase() : input.email;
    if (!email) throw fieldError('email', 'Email address is required');
    await limiter.consume({ key: `waitlist:email:${email}`, max: mailsPerAddressPerHour, windowMs: hourMs }, 'We have sent several e-mails to this address in the last hour. Please check your inbox, or try again in an hour.');
    const token = newToken();
    const link = `${this.deps.publicUrl}${manageLinkPath(token)}`;
    await db.transaction(async (tx) => {
      // Not yet confirmed: a new token each time, and the link in the latest mail is the one that
      // works. Confirmed: the link they have keeps working (it is how they leave; an entry confirmed
      // by an account has none, and gets one), and the address is reminded it is on the list, once
      // a day at most. The entry is the address's, not the account's: an account gets it only by
      // opening the link signed in.
      const [entry] = await queryRows<{ confirmed: boolean; remind: boolean; new_link: boolean }>(tx, sql`
        insert into waitlist_entries (product_id, email, manage_token_hash, manage_token_sent_at, told_opening_at) values (${product.id}, ${email}, ${hashToken(token)}, now(), ${shownOpening})
        on conflict (product_id, lower(email)) where ${active} do update set
          manage_token_hash = case when waitlist_entries.confirmed_at is null or waitlist_entries.manage_token_hash is null then excluded.manage_token_hash else waitlist_entries.manage_token_hash end,
          manage_token_sent_at = case when waitlist_entries.confirmed_at is null or waitlist_entries.manage_token_hash is null then now() else waitlist_entries.manage_token_sent_at end,
          reminded_at = case when waitlist_entries.confirmed_at is not null and (waitlist_entries.reminded_at is null or waitlist_entries.reminded_at <= now() - interval '1 day')
            then now() else waitlist_entries.reminded_at end
        returning confirmed_at is not null as confirmed, confirmed_at is not null and reminded_at = now() as remind, manage_token_hash = ${hashToken(token)} as new_link`);
      const opensAt = opensLater(product, now) ? product.preOrdersOpenAt : null;
      if (!entry?.confirmed) await queueMail(tx, confirmMail({ to: email, productName: product.name, link, opensAt }));
      else if (entry.remind) await queueMail(tx, alreadyOnListMail({ to: email, productName: product.name, opensAt, link: entry.new_link ? link : null }));
    });
    return { state: 'confirm by e-mail', message: `Almost there: we have sent a link to ${email}. Open it to confirm your place on the waitlist for ${product.name}.` };
  }

  /** What the mailed link stands for; an unconfirmed entry's link works for `confirmLinkValidMs`. */
  async manageLinkState(token: string | undefined): Promise<ManageLinkState> {
    if (!token) return { state: 'invalid' };
    const [row] = await queryRows<{ product_id: number; name: string; confirmed: boolean; notified: boolean; cancelled: boolean; fresh: boolean }>(this.deps.db, sql`
      select e.product_id, p.name, e.confirmed_at is not null as confirmed, e.notified_at is not null as notified,
        e.cancelled_at is not null as cancelled, e.manage_token_sent_at > now() - make_interval(secs => ${confirmLinkValidMs / 1000}) as fresh
      from waitlist_entries e join products p on p.id = e.product_id
      where e.manage_token_hash = ${hashToken(token)}`);
    if (!row || row.cancelled || (!row.confirmed && !row.fresh)) return { state: 'invalid' };
    const state = row.notified ? 'notified' : row.confirmed ? 'waiting' : 'confirm';
    return { state, productId: row.product_id, productName: row.name };
  }

  /**
   * Confirms the link's entry (double opt-in). Opened by an account signed in with the entry's
   * address, it also proves that account reads its address, and the entry becomes the account's:
   * the link alone proves the mailbox, and the session alone proves nothing about it. Answers the
   * state after, as the link's page shows it.
   */
  async confirm(token: string | undefined, signedIn: UserRow | null): Promise<ManageLinkState> {
    if (token) {
      const accountId = signedIn?.id ?? null;
      const accountEmail = signedIn?.email.toLowerCase() ?? null;
      await this.deps.db.execute(sql`
        with confirmed as (
          update waitlist_entries set confirmed_at = now(),
            user_id = case when lower(email) = ${accountEmail} then coalesce(user_id, ${accountId}) else user_id end
          where manage_token_hash = ${hashToken(token)} and confirmed_at is null and ${active}
            and manage_token_sent_at > now() - make_interval(secs => ${confirmLinkValidMs / 1000})
          returning user_id, email
        )
        update users u set email_proven_at = now() from confirmed c
        where u.id = ${accountId} and c.user_id = u.id and lower(u.email) = lower(c.email) and u.email_proven_at is null`);
    }
    return this.manageLinkState(token);
  }

  /** Takes the link's entry off the list; false when the link stands for nothing that waits. */
  async leaveByLink(token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const rows = await queryRows<{ id: number }>(this.deps.db, sql`
      update waitlist_entries set cancelled_at = now() where manage_token_hash = ${hashToken(token)} and ${active} returning id`);
    return rows.length > 0;
  }

  /** Whether the back-in-stock mail's token is known (it stays known after use: the page says so again). */
  async unsubscribeLinkKnown(token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const rows = await queryRows<{ id: number }>(this.deps.db, sql`select id from waitlist_entries where unsubscribe_token_hash = ${hashToken(token)}`);
    return rows.length > 0;
  }

  /** The one-click unsubscribe of a back-in-stock mail: every list the address still waits on, left. */
  async unsubscribe(token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const rows = await queryRows<{ email: string }>(this.deps.db, sql`select email from waitlist_entries where unsubscribe_token_hash = ${hashToken(token)}`);
    const email = rows[0]?.email;
    if (!email) return false;
    await this.deps.db.execute(sql`update waitlist_entries set cancelled_at = now() where lower(email) = ${email.toLowerCase()} and ${active}`);
    return true;
  }

  /** The shopper's own entries still waiting. */
  async listFor(user: UserRow): Promise<WaitlistEntryView[]> {
    const rows = await queryRows<{ id: number; product_id: number; name: string; created_at: Date | string }>(this.deps.db, sql`
      select e.id, e.product_id, p.name, e.created_at from waitlist_entries e join products p on p.id = e.product_id
      where ${ownedBy(user)} and e.confirmed_at is not null and e.notified_at is null and e.cancelled_at is null
      order by e.created_at, e.id`);
    return rows.map((row) => ({ id: row.id, productId: row.product_id, productName: row.name, joinedAt: new Date(row.created_at).toISOString() }));
  }

  /** Leaves one of the shopper's lists; a second leave, or someone else's entry, answers false. */
  async cancelFor(user: UserRow, entryId: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(this.deps.db, sql`
      update waitlist_entries e set cancelled_at = now() where e.id = ${entryId} and ${ownedBy(user)} and e.notified_at is null and e.cancelled_at is null
      returning e.id`);
    return rows.length > 0;
  }

  /**
   * Mails every confirmed entry whose product can be bought now, once each, in the order people
   * joined. Each entry is marked used in the transaction that queues its mail, under row locks and
   * an advisory lock, so two processes sweeping at once never mail anyone twice. Answers the mails queued.
   */
  async notifyAvailable(signal?: AbortSignal): Promise<number> {
    let queued = 0;
    while (!signal?.aborted) {
      const batch = await this.deps.db.transaction((tx) => this.notifyBatch(tx));
      queued += Math.max(batch, 0);
      if (batch < sweepBatch) break;
    }
    return queued;
  }

  private async notifyBatch(tx: Tx): Promise<number> {
    const [lock] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${sweepLockKey}) as locked`);
    // Another process is sweeping: it mails these entries, in order.
    if (!lock?.locked) return -1;
    // News of a set or moved opening first: the batch's room is shared with the "open" mails.
    const now = this.deps.clock();
    const told = await tellNewOpenings(tx, now, this.deps.publicUrl, sweepBatch);
    if (told >= sweepBatch) return told;
    const due = await queryRows<{ id: number; email: string; product_id: number; name: string; is_pre_order: boolean }>(tx, sql`
      select e.id, coalesce(u.email, e.email) as email, products.id as product_id, products.name, products.is_pre_order
      from waitlist_entries e
      join products on products.id = e.product_id
      left join users u on u.id = e.user_id
      where e.confirmed_at is not null and e.notified_at is null and e.cancelled_at is null and ${buyableAt(now)}
      order by e.created_at, e.id
      limit ${sweepBatch - told}
      for update of e skip locked`);
    for (const entry of due) {
      const token = newToken();
      await tx.execute(sql`update waitlist_entries set notified_at = ${now.toISOString()}::timestamptz, unsubscribe_token_hash = ${hashToken(token)} where id = ${entry.id}`);
      await queueMail(
        tx,
        backMail({
          to: entry.email,
          productName: entry.name,
          isPreOrder: entry.is_pre_order,
          productUrl: `${this.deps.publicUrl}/product/${entry.product_id}`,
          unsubscribeUrl: `${this.deps.publicUrl}${unsubscribeLinkPath(token)}`,
        }),
      );
    }
    return told + due.length;
  }

  /** Staff: per product with any sign-ups, the demand waiting, unconfirmed and already told. */
  async counts(): Promise<WaitlistCount[]> {
    const rows = await queryRows<{ product_id: number; name: string; waiting: number; unconfirmed: number; notified: number }>(this.deps.db, sql`
      select p.id as product_id, p.name,
        count(*) filter (where e.confirmed_at is not null and e.notified_at is null and e.cancelled_at is null)::int as waiting,
        count(*) filter (where e.confirmed_at is null and e.cancelled_at is null and e.notified_at is null)::int as unconfirmed,
        count(*) filter (where e.notified_at is not null)::int as notified
      from waitlist_entries e join products p on p.id = e.product_id
      group by p.id, p.name
      order by waiting desc, p.name`);
    return rows.map((row) => ({ productId: row.product_id, productName: row.name, waiting: Number(row.waiting), unconfirmed: Number(row.unconfirmed), notified: Number(row.notified) }));
  }

  /** Staff: a product's confirmed sign-ups in the order they joined (unconfirmed addresses gave no consent). */
  async exportCsv(productId: number): Promise<string> {
    const rows = await queryRows<{ created_at: Date | string; email: string; name: string | null; notified_at: Date | string | null; cancelled_at: Date | string | null }>(this.deps.db, sql`
      select e.created_at, coalesce(u.email, e.email) as email, nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as name, e.notified_at, e.cancelled_at
      from waitlist_entries e left join users u on u.id = e.user_id
      where e.product_id = ${productId} and e.confirmed_at is not null
      order by e.created_at, e.id`);
    return csvDocument(
      ['Joined', 'Email', 'Customer', 'Status', 'Emailed'],
      rows.map((row) => [
        nzTime(row.created_at),
        row.email,
        row.name ?? '',
        row.notified_at ? 'Emailed' : row.cancelled_at ? 'Left' : 'Waiting',
        row.notified_at ? nzTime(row.notified_at) : '',
      ]),
    );
  }

  /** Housekeeping: visitors' entries never confirmed within the link's week. */
  async purgeUnconfirmed(): Promise<void> {
    await this.deps.db.execute(sql`
      delete from waitlist_entries where confirmed_at is null and manage_token_sent_at < now() - make_interval(secs => ${confirmLinkValidMs / 1000})`);
  }
}

/**
 * An entry is the shopper's when their account made it (or joined it with one click). A visitor's
 * entry for the same address is not shown by address alone: an account's address is not proven.
 */
const ownedBy = (user: UserRow) => sql`e.user_id = ${user.id}`;

/** What the waitlist waits for: an opening still ahead, or boxes again. */
function whenTold(product: Product, now: number): string {
  return opensLater(product, now) ? 'when pre-orders open' : 'when it is back';
}

const nzTimeFormat = new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', dateStyle: 'medium', timeStyle: 'short' });
const nzTime = (value: Date | string) => nzTimeFormat.format(new Date(value));
