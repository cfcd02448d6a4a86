import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * Every e-mail the shop sends waits here first, written in the same transaction as the change that
 * causes it, so a crash, a restart or a mail-server outage loses none. A worker in each process
 * delivers due rows one at a time (claimed with SKIP LOCKED) and retries failures with backoff.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    /** When the next delivery may start: now for a new mail, later after a failure, or while a process holds it. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Given up: refused for good by the mail server, still failing after the retry period, or expired. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    /** When the mail stops being worth sending (a reset link's expiry): unsent by then, it is given up. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_due').on(t.dueAt).where(sql`${t.sentAt} is null and ${t.failedAt} is null`)],
);

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    unsubscribeTokenHash: text('unsubscribe_token_hash').notNull().unique(),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('newsletter_subscribers_email_lower_key').on(sql`lower(${t.email})`)],
);
