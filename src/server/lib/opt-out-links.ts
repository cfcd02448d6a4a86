import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { type readyMailLinks, type reviewMailLinks, users } from '../db/schema';
import { hashToken, newToken } from './tokens';

/** Opt-out links work this long: past every e-mail of an order they came with. */
export const optOutLinkDays = 60;

/** An opt-out link's checks on one database: whether it is good, using it, and housekeeping. */
export interface OptOutLinksOn {
  isValid(token: string): Promise<boolean>;
  /** Turns the e-mails off for the link's shopper (again is fine); false for a link not valid. */
  optOut(token: string): Promise<boolean>;
  /** Links past their time go. */
  purgeExpired(): Promise<void>;
}

/**
 * The one-click opt-out links of a kind of e-mail (ripeness reminders, review requests): each
 * e-mail carries a new one, any of a shopper's links turns that kind off for them, and only the
 * tokens' hashes are kept.
 */
export class OptOutLinks {
  constructor(private readonly kind: { table: typeof readyMailLinks | typeof reviewMailLinks; off: 'readyMailOffAt' | 'reviewMailOffAt'; path: string }) {}

  /** A new link for the shopper's next e-mail, written in the e-mail's transaction. */
  async make(tx: Tx, userId: number, publicUrl: string): Promise<string> {
    const token = newToken();
    await tx.insert(this.kind.table).values({ tokenHash: hashToken(token), userId });
    return `${publicUrl}${this.kind.path}?token=${encodeURIComponent(token)}`;
  }

  async isValid(db: Db, token: string): Promise<boolean> {
    return (await this.userOf(db, token)) !== null;
  }

  /** Turns the e-mails off for the link's shopper (again is fine); false for a link not valid. */
  async optOut(db: Db, token: string): Promise<boolean> {
    const userId = await this.userOf(db, token);
    if (userId === null) return false;
    const column = users[this.kind.off];
    await db
      .update(users)
      .set({ [this.kind.off]: sql`coalesce(${column}, now())` })
      .where(eq(users.id, userId));
    return true;
  }

  /** The side of the links a mail's page and housekeeping use, on the shop's database. */
  on(db: Db): OptOutLinksOn {
    return { isValid: (token) => this.isValid(db, token), optOut: (token) => this.optOut(db, token), purgeExpired: () => this.purgeExpired(db) };
  }

  /** Housekeeping: links past their time go. */
  async purgeExpired(db: Db): Promise<void> {
    const { table } = this.kind;
    await db.delete(table).where(sql`${table.createdAt} < now() - make_interval(days => ${optOutLinkDays})`);
  }

  private async userOf(db: Db, token: string): Promise<number | null> {
    const { table } = this.kind;
    const [link] = await db
      .select({ userId: table.userId })
      .from(table)
      .where(and(eq(table.tokenHash, hashToken(token)), sql`${table.createdAt} >= now() - make_interval(days => ${optOutLinkDays})`));
    return link?.userId ?? null;
  }
}
