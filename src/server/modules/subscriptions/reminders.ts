import { and, eq, lt, sql } from 'drizzle-orm';
import { addDays, nzToday } from '../../../contracts/dates';
import { formatNzd } from '../../../contracts/money';
import type { DeliverySettings } from '../../../contracts/delivery';
import type { StoredSettings } from '../../../contracts/settings';
import { subscriberPriceCents } from '../../../contracts/subscriptions';
import type { Db, Tx } from '../../db/client';
import { products, subscriptionDeliveries, subscriptionMailLinks, subscriptionStop, subscriptions, users } from '../../db/schema';
import { composeMail } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import { hashToken, newToken } from '../../lib/tokens';
import type { DeliveryService } from '../delivery/service';
import type { SettingsService } from '../settings/service';
import { type PlannedDelivery, plannedDeliveries } from './reserved';
import { cutoffOf, cutoffWords, dayWords } from './schedule';

/** The "skip or change it" e-mail goes this long before the box's cut-off (or at once, when it is set up later). */
export const reminderLeadMs = 3 * 24 * 60 * 60 * 1000;
/** A mail link's path: its token names one delivery of one subscription. */
export const skipLinkPath = '/api/season-box-mail/skip';
export const unskipLinkPath = '/api/season-box-mail/unskip';

export interface ReminderDeps {
  db: Db;
  delivery: DeliveryService;
  settings: SettingsService;
  clock: () => Date;
  publicUrl: string;
}

/** A link's delivery. */
export interface LinkedDelivery {
  subscriptionId: number;
  deliveryDate: string;
}

/**
 * The e-mail a few days before each box's cut-off: the date, the box and its price (and whether
 * that changed), with a one-click skip link that works signed out, for that delivery only.
 */
export class SeasonBoxReminders {
  constructor(private readonly deps: ReminderDeps) {}

  /** Mails every box whose cut-off is within the lead and not mailed yet; each once, whichever process sweeps. */
  async sendDue(signal?: AbortSignal): Promise<number> {
    return this.send(undefined, signal);
  }

  /** A season box just set up (or started again) whose first box is already within the lead hears of it at once, not at the next sweep. */
  async sendFor(subscriptionId: number): Promise<number> {
    return this.send(subscriptionId);
  }

  private async send(subscriptionId: number | undefined, signal?: AbortSignal): Promise<number> {
    // Stopped by staff, no order is made at the cut-off: the mail would say otherwise.
    const [stop] = await this.deps.db.select({ stoppedAt: subscriptionStop.stoppedAt }).from(subscriptionStop);
    if (stop?.stoppedAt) return 0;
    const [settings, delivery] = await Promise.all([this.deps.settings.stored(), this.deps.delivery.settings()]);
    const now = this.deps.clock();
    const today = nzToday(now);
    const due = (await plannedDeliveries(this.deps.db, delivery, today, addDays(today, 10), subscriptionId ? { subscriptionId } : undefined)).filter((box) => {
      const cutoff = cutoffOf(delivery, box.region, box.date).getTime();
      return cutoff > now.getTime() && cutoff - now.getTime() <= reminderLeadMs;
    });
    let sent = 0;
    for (const box of due) {
      if (signal?.aborted) break;
      if (await this.deps.db.transaction((tx) => this.remind(tx, box, settings, delivery, cutoffOf(delivery, box.region, box.date)))) sent += 1;
    }
    return sent;
  }

  /** The delivery a link's token names, or null for a link not valid. */
  async deliveryOf(token: string): Promise<LinkedDelivery | null> {
    const [link] = await this.deps.db
      .select({ subscriptionId: subscriptionMailLinks.subscriptionId, deliveryDate: subscriptionMailLinks.deliveryDate })
      .from(subscriptionMailLinks)
      .where(eq(subscriptionMailLinks.tokenHash, hashToken(token)));
    return link ?? null;
  }

  /** Housekeeping: links of deliveries gone by go. */
  async purgeExpired(): Promise<void> {
    await this.deps.db.delete(subscriptionMailLinks).where(lt(subscriptionMailLinks.deliveryDate, addDays(nzToday(this.deps.clock()), -1)));
  }

  private async remind(tx: Tx, box: PlannedDelivery, settings: StoredSettings, delivery: DeliverySettings, cutoff: Date): Promise<boolean> {
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, box.subscriptionId)).for('update');
    if (!sub || (sub.status !== 'active' && sub.status !== 'paused')) return false;
    const where = and(eq(subscriptionDeliveries.subscriptionId, box.subscriptionId), eq(subscriptionDeliveries.deliveryDate, box.date));
    await tx.insert(subscriptionDeliveries).values({ subscriptionId: box.subscriptionId, deliveryDate: box.date }).onConflictDoNothing();
    const [row] = await tx.select().from(subscriptionDeliveries).where(where).for('update');
    if (!row || row.state || row.remindedAt) return false;
    const [user] = await tx.select().from(users).where(eq(users.id, sub.userId));
    const [product] = await tx.select().from(products).where(eq(products.id, row.productId ?? sub.productId));
    if (!user || !product) return false;
    const quantity = row.quantity ?? sub.quantity;
    const unitPriceCents = subscriberPriceCents(product.priceCents, product.subscriberDiscountPercent);
    // The subscription's own product at a new price is news; a box changed to another product was the shopper's choice.
    const priceChanged = product.id === sub.productId && unitPriceCents !== sub.toldUnitPriceCents;
    const token = newToken();
    await tx.insert(subscriptionMailLinks).values({ tokenHash: hashToken(token), subscriptionId: sub.id, deliveryDate: box.date });
    await tx.update(subscriptionDeliveries).set({ remindedAt: sql`now()`, updatedAt: sql`now()` }).where(where);
    if (priceChanged) await tx.update(subscriptions).set({ toldUnitPriceCents: unitPriceCents, updatedAt: sql`now()` }).where(eq(subscriptions.id, sub.id));
    const deliveryCents = settings.shippingCents + (sub.rural ? delivery.ruralSurchargeCents : 0);
    await queueMail(
      tx,
      seasonBoxReminderMail({
        to: user.email,
        firstName: user.firstName || user.username,
        date: box.date,
        cutoff,
        productName: product.name,
        quantity,
        unitPriceCents,
        deliveryCents,
        was: priceChanged ? sub.toldUnitPriceCents : null,
        skipUrl: `${this.deps.publicUrl}${skipLinkPath}?token=${encodeURIComponent(token)}`,
        accountUrl: `${this.deps.publicUrl}/account#season-box`,
        siteName: settings.siteName,
      }),
    );
    return true;
  }
}

/** "Your box arrives on Friday 12 December: skip or change it by Wednesday 12 pm". */
export function seasonBoxReminderMail(mail: {
  to: string;
  firstName: string;
  date: string;
  cutoff: Date;
  productName: string;
  quantity: number;
  unitPriceCents: number;
  deliveryCents: number;
  was: number | null;
  skipUrl: string;
  accountUrl: string;
  siteName: string;
}) {
  const subject = `Your box arrives on ${dayWords(mail.date)}: skip or change it by ${cutoffWords(mail.cutoff)}`;
  return composeMail({
    to: mail.to,
    subject,
    preview: `${mail.quantity} × ${mail.productName}, ${formatNzd(mail.unitPriceCents * mail.quantity + mail.deliveryCents)} with delivery.`,
    greeting: `Kia ora ${mail.firstName},`,
    parts: [
      `Your next season box arrives on ${dayWords(mail.date)}.`,
      '',
      {
        kind: 'table',
        rows: [
          { label: `${mail.quantity} × ${mail.productName}`, value: formatNzd(mail.unitPriceCents * mail.quantity) },
          { label: 'Delivery', value: formatNzd(mail.deliveryCents) },
          { label: 'Total', value: formatNzd(mail.unitPriceCents * mail.quantity + mail.deliveryCents), strong: true },
        ],
      },
      ...(mail.was !== null ? [{ kind: 'callout' as const, text: `The price has changed: ${formatNzd(mail.unitPriceCents)} a box now (it was ${formatNzd(mail.was)}), your subscriber discount taken off.` }, ''] : []),
      `Not this time? Skip it by ${cutoffWords(mail.cutoff)}; the boxes after it still come. We make the order at that time.`,
      '',
      { kind: 'button', label: 'Skip this box', href: mail.skipUrl },
      '',
      { kind: 'link', label: 'Change the box or quantity', href: mail.accountUrl },
    ],
    siteName: mail.siteName,
  });
}
