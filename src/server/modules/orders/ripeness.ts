import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import { addDays, formatDay, nzToday, nzWallTime } from '../../../contracts/dates';
import { clockInWords, formatDayRange, type RipeningClock, ripeningAdvice, type RipeWindow, ripeWindow, spanOf } from '../../../contracts/ripeness';
import type { Db, Tx } from '../../db/client';
import { orderLineBatches, orderLines, orders, products, readyMailLinks, stockBatches, users } from '../../db/schema';
import type { MailMessage } from '../../lib/mail';
import { composeMail, type MailPart } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import { OptOutLinks, type OptOutLinksOn } from '../../lib/opt-out-links';

/** An order line's fruit: when it should be ready to eat, fixed when the order ships. */
export interface LineWindow {
  name: string;
  window: RipeWindow;
}

/** A line's window with the variety's clock it was worked out with (the shipping e-mail explains it). */
export interface LineRipeness extends LineWindow {
  lineId: number;
  clock: RipeningClock;
}

/** What the shipping e-mail says of ripeness: each line's window, and the reminder's day and opt-out link. */
export interface ShippedRipeness {
  lines: LineRipeness[];
  /** The day the boxes should arrive: the delivery day, or the day after shipping. */
  arrives: string;
  remindOn: string | null;
  optOutUrl: string | null;
}

/** The reminder goes out from this hour (NZ) of its day: nobody wants fruit news at midnight. */
const reminderHour = 8;
/** A reminder the shop could not send within this many days of its day (the shop was down) is passed over. */
const staleAfterDays = 2;
/** The opt-out links of the ripeness e-mails. */
export const readyOptOut = new OptOutLinks({ table: readyMailLinks, off: 'readyMailOffAt', path: '/api/ripeness-reminders/opt-out' });

/**
 * The windows of an order's packed lines: each from the harvest dates of the batches its boxes came
 * from and its product's clock now. Lines whose product has no clock, or whose batches no harvest
 * date, have none.
 */
export async function ripenessOfOrder(db: Db | Tx, orderId: number): Promise<LineRipeness[]> {
  const rows = await db
    .select({ lineId: orderLines.id, name: orderLines.productName, harvestedOn: stockBatches.harvestedOn, ripeningDays: products.ripeningDays, daysAtBest: products.daysAtBest })
    .from(orderLines)
    .innerJoin(orderLineBatches, eq(orderLineBatches.orderLineId, orderLines.id))
    .innerJoin(stockBatches, eq(stockBatches.id, orderLineBatches.batchId))
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(and(eq(orderLines.orderId, orderId), isNotNull(stockBatches.harvestedOn), isNotNull(products.ripeningDays), isNotNull(products.daysAtBest)))
    .orderBy(asc(orderLines.id), asc(stockBatches.id));
  const byLine = new Map<number, { name: string; clock: RipeningClock; windows: RipeWindow[] }>();
  for (const row of rows) {
    const clock = { ripeningDays: row.ripeningDays!, daysAtBest: row.daysAtBest! };
    const line = byLine.get(row.lineId) ?? { name: row.name, clock, windows: [] };
    line.windows.push(ripeWindow(row.harvestedOn!, clock));
    byLine.set(row.lineId, line);
  }
  return [...byLine.entries()].map(([lineId, line]) => ({ lineId, name: line.name, clock: line.clock, window: spanOf(line.windows)! }));
}

/** The windows the order's lines were given when it shipped. */
async function storedWindows(tx: Tx, orderId: number): Promise<LineWindow[]> {
  const rows = await tx
    .select({ name: orderLines.productName, from: orderLines.readyFrom, until: orderLines.readyUntil })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), isNotNull(orderLines.readyFrom), isNotNull(orderLines.readyUntil)))
    .orderBy(asc(orderLines.id));
  return rows.map((row) => ({ name: row.name, window: { from: row.from!, until: row.until! } }));
}

/**
 * The reminder's day: the first day fruit of the order should be ready, among the lines that
 * ripen after the boxes arrive. Fruit ripe on arrival needs no reminder: the shipping e-mail says so.
 */
export function reminderDay(lines: readonly LineWindow[], arrives: string): string | null {
  return spanOf(lines.map((line) => line.window).filter((window) => window.from > arrives))?.from ?? null;
}

/**
 * At shipping: the order's ripeness, each line's window and the reminder's day stored with it (the
 * sweep sends from them), and for a shopper who takes reminders an opt-out link for the shipping
 * e-mail. The boxes arrive on their delivery day, or the day after they leave if that has passed.
 */
export async function planReadyMail(tx: Tx, order: { id: number; userId: number; deliveryDate: string | null; fulfilment?: 'delivery' | 'pickup' }, now: Date, publicUrl: string): Promise<ShippedRipeness> {
  const lines = await ripenessOfOrder(tx, order.id);
  for (const line of lines) await tx.update(orderLines).set({ readyFrom: line.window.from, readyUntil: line.window.until }).where(eq(orderLines.id, line.lineId));
  // A parcel arrives the day after it leaves at the soonest; a pickup order can be collected today.
  const soonest = order.fulfilment === 'pickup' ? nzToday(now) : addDays(nzToday(now), 1);
  const arrives = order.deliveryDate && order.deliveryDate > soonest ? order.deliveryDate : soonest;
  const remindOn = reminderDay(lines, arrives);
  await tx.update(orders).set({ readyMailOn: remindOn, readyMailDoneAt: null }).where(eq(orders.id, order.id));
  if (!remindOn) return { lines, arrives, remindOn, optOutUrl: null };
  const [customer] = await tx.select({ offAt: users.readyMailOffAt }).from(users).where(eq(users.id, order.userId));
  if (!customer || customer.offAt) return { lines, arrives, remindOn: null, optOutUrl: null };
  return { lines, arrives, remindOn, optOutUrl: await readyOptOut.make(tx, order.userId, publicUrl) };
}

/** The ripening guide in the shipping e-mail: each variety's days, how to ripen them, and the reminder. */
export function ripeningGuide(ripeness: ShippedRipeness | undefined): MailPart[] {
  if (!ripeness?.lines.length) return [];
  return [
    '',
    'Your ripening guide. Mangoes are picked firm and ripen in your fruit bowl:',
    {
      kind: 'list',
      items: ripeness.lines.map((line) => `${line.name}: ${whenReady(line.window, ripeness.arrives)} (${clockInWords(line.clock)}).`),
    },
    { kind: 'list', items: [...ripeningAdvice] },
    ...(ripeness.remindOn
      ? [
          `We will e-mail you on ${formatDay(ripeness.remindOn)}, the first day they should be ready.`,
          ...(ripeness.optOutUrl ? [{ kind: 'link' as const, label: 'No reminder, thanks', href: ripeness.optOutUrl }] : []),
        ]
      : []),
  ];
}

/** A line's window as the shipping e-mail puts it: ahead of the boxes, or ripe by the time they arrive. */
function whenReady(window: RipeWindow, arrives: string): string {
  const lastDay = formatDayRange({ from: window.until, until: window.until });
  if (window.from > arrives) return `ready to eat around ${formatDayRange(window)}`;
  return window.until >= arrives ? `ready to eat when they arrive, at their best until ${lastDay}` : `ripe already: eat them soon after they arrive`;
}

/** A line as the reminder puts it on `today`: ready now, or still to come; null once past its best. */
function readyLine(line: LineWindow, today: string): string | null {
  if (line.window.until < today) return null;
  if (line.window.from <= today) return `${line.name}: ready now, at their best until ${formatDayRange({ from: line.window.until, until: line.window.until })}`;
  return `${line.name}: not yet, ready around ${formatDayRange(line.window)}`;
}

/** The short e-mail on the first ready day, with its one-click opt-out. */
export function readyMail(mail: { to: string; firstName: string; orderNumber: string; lines: readonly LineWindow[]; today: string; orderUrl: string; optOutUrl: string; siteName: string }): MailMessage {
  return composeMail({
    to: mail.to,
    subject: 'Your mangoes should be ready to eat',
    preview: `From today your mangoes from order ${mail.orderNumber} should be ready to eat.`,
    greeting: `Kia ora ${mail.firstName},`,
    parts: [
      `From today your mangoes from order ${mail.orderNumber} should be ready to eat, variety by variety:`,
      { kind: 'list', items: mail.lines.flatMap((line) => readyLine(line, mail.today) ?? []) },
      'A ripe mango gives a little to a gentle press and smells sweet at the stem. Not quite there? Give it another day or two at room temperature. Once ripe, keep them in the fridge.',
      '',
      { kind: 'button', label: 'See your order', href: mail.orderUrl },
      '',
      { kind: 'link', label: 'Stop these ripeness reminders', href: mail.optOutUrl },
    ],
    siteName: mail.siteName,
    // RFC 8058: mail clients offer their own unsubscribe button, which POSTs to the link.
    headers: { 'List-Unsubscribe': `<${mail.optOutUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  });
}

export interface ReadyReminderDeps {
  db: Db;
  clock: () => Date;
  publicUrl: string;
  siteName: () => Promise<string>;
}

/** The "your mangoes should be ready" e-mails: each order's once, on its day, across processes. */
export class ReadyReminders {
  /** The opt-out links in these reminders: the mail's page checks and uses them; housekeeping purges them. */
  readonly optOutLinks: OptOutLinksOn;

  constructor(private readonly deps: ReadyReminderDeps) {
    this.optOutLinks = readyOptOut.on(deps.db);
  }

  /**
   * Queues the reminders due by the shop's clock, only between 8 am and midnight NZ: on the day,
   * or up to two days late after the shop was down; later ones are passed over. Each order is
   * locked and re-checked, so of several processes sweeping at once one sends it. Answers how
   * many were queued.
   */
  async sendDue(stop?: AbortSignal): Promise<number> {
    const now = this.deps.clock();
    const today = nzToday(now);
    const { db } = this.deps;
    await db
      .update(orders)
      .set({ readyMailDoneAt: sql`now()` })
      .where(and(isNotNull(orders.readyMailOn), isNull(orders.readyMailDoneAt), lt(orders.readyMailOn, addDays(today, -staleAfterDays))));
    if (Number(nzWallTime(now).slice(11, 13)) < reminderHour) return 0;
    const sendUpTo = today;
    const due = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(isNotNull(orders.readyMailOn), isNull(orders.readyMailDoneAt), lte(orders.readyMailOn, sendUpTo), inArray(orders.status, ['shipped', 'delivered'])))
      .orderBy(asc(orders.readyMailOn), asc(orders.id))
      .limit(200);
    let queued = 0;
    const siteName = due.length ? await this.deps.siteName() : '';
    for (const { id } of due) {
      if (stop?.aborted) break;
      if (await this.sendOne(id, sendUpTo, today, siteName)) queued += 1;
    }
    return queued;
  }

  private sendOne(orderId: number, sendUpTo: string, today: string, siteName: string): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), isNull(orders.readyMailDoneAt), lte(orders.readyMailOn, sendUpTo), inArray(orders.status, ['shipped', 'delivered'])))
        .for('update', { skipLocked: true });
      if (!order) return false;
      await tx.update(orders).set({ readyMailDoneAt: sql`now()` }).where(eq(orders.id, orderId));
      const [customer] = await tx.select().from(users).where(eq(users.id, order.userId));
      if (!customer || customer.readyMailOffAt) return false;
      const lines = await storedWindows(tx, orderId);
      if (!lines.some((line) => line.window.from <= today && line.window.until >= today)) return false;
      await queueMail(
        tx,
        readyMail({
          to: customer.email,
          firstName: customer.firstName,
          orderNumber: order.number,
          lines,
          today,
          orderUrl: `${this.deps.publicUrl}/account/orders/${order.number}`,
          optOutUrl: await readyOptOut.make(tx, customer.id, this.deps.publicUrl),
          siteName,
        }),
      );
      return true;
    });
  }
}
