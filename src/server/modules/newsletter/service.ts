import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { subscribeSchema } from '../../../contracts/newsletter';
import { type Db, queryRows } from '../../db/client';
import { composeMail } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import type { RateLimiter } from '../../lib/rate-limit';
import { hashToken, newToken } from '../../lib/tokens';

const hourMs = 60 * 60 * 1000;
/** Generous for a household behind one IP, small enough that nobody floods inboxes through us. */
const subscriptionsPerIpPerHour = 20;

export const subscribedAnswer = 'Thank you for subscribing to our newsletter.';

export interface NewsletterDeps {
  db: Db;
  limiter: RateLimiter;
  /** Where links in e-mails point (PUBLIC_URL, or this server on localhost). */
  publicUrl: string;
}

/**
 * ARCHITECTURE difference 7: the subscription is really stored. A new or returning address gets a
 * fresh unsubscribe token (only its hash is kept) and a welcome mail carrying it; an address that
 * is already subscribed gets nothing new, so repeating the form cannot flood anyone's inbox.
 */
export async function subscribe(deps: NewsletterDeps, input: z.output<typeof subscribeSchema>, ip: string): Promise<void> {
  await deps.limiter.consume(
    { key: `newsletter:ip:${ip}`, max: subscriptionsPerIpPerHour, windowMs: hourMs },
    'Too many newsletter sign-ups from this network. Please try again in an hour.',
  );
  const token = newToken();
  const link = `${deps.publicUrl}${unsubscribePath(token)}`;
  await deps.db.transaction(async (tx) => {
    // One statement, so two clicks at once cannot both insert: the lower(email) index arbitrates.
    const [started] = await queryRows<{ id: number }>(tx, sql`
      insert into newsletter_subscribers (email, unsubscribe_token_hash) values (${input.email}, ${hashToken(token)})
      on conflict ((lower(email))) do update set
        unsubscribe_token_hash = excluded.unsubscribe_token_hash, subscribed_at = now(), unsubscribed_at = null
        where newsletter_subscribers.unsubscribed_at is not null
      returning id`);
    if (!started) return;
    const mail = composeMail({
      to: input.email,
      subject: 'Welcome to the Mango Shop newsletter',
      greeting: 'Kia ora,',
      parts: [
        'Thank you for subscribing to the Mango Shop newsletter.',
        "We'll let you know when your favourite varieties come into season, and about new arrivals and offers.",
        '',
        { kind: 'link', label: 'Changed your mind? Unsubscribe at any time with this link', href: link },
      ],
      siteName: 'Mango Shop',
      // RFC 8058: mail clients offer their own unsubscribe button, which POSTs to the link.
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    await queueMail(tx, mail);
  });
}

/** The address of the unsubscribe link: its page on a GET, the unsubscribing itself on a POST. */
export function unsubscribePath(token: string): string {
  return `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

export type UnsubscribeLinkState = 'subscribed' | 'unsubscribed' | 'invalid';

/** Where the link's subscriber stands; reading it changes nothing, as mail scanners open links too. */
export async function unsubscribeLinkState(db: Db, token: string | undefined): Promise<UnsubscribeLinkState> {
  if (!token) return 'invalid';
  const [row] = await queryRows<{ unsubscribed: boolean }>(db, sql`
    select unsubscribed_at is not null as unsubscribed from newsletter_subscribers
    where unsubscribe_token_hash = ${hashToken(token)}`);
  if (!row) return 'invalid';
  return row.unsubscribed ? 'unsubscribed' : 'subscribed';
}

/** Answers whether the token belonged to a subscriber; using the link again still says yes. */
export async function unsubscribe(db: Db, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const rows = await queryRows<{ id: number }>(db, sql`
    update newsletter_subscribers set unsubscribed_at = coalesce(unsubscribed_at, now())
    where unsubscribe_token_hash = ${hashToken(token)}
    returning id`);
  return rows.length > 0;
}
