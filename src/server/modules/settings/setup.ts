import type { DeliverySettings } from '../../../contracts/delivery';
import { defaultPickupSettings } from '../../../contracts/pickup';
import { sampleBankAccountNumber, type StoredSettings } from '../../../contracts/settings';
import type { SetupChecklist, SetupItem } from '../../../contracts/setup';
import type { Db } from '../../db/client';
import { and, asc, isNull, or } from 'drizzle-orm';
import { contentPages, products } from '../../db/schema';
import { hasBankAccount } from './bank-account';
import { defaultSettings } from './defaults';

interface SetupFacts {
  settings: StoredSettings;
  delivery: DeliverySettings;
  /** PUBLIC_URL as configured (undefined when not set: mail links then point at localhost). */
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  /** Where mail links point now. */
  linkBase: string;
  /** The content pages, whose words may state rules the settings now contradict. */
  pages: Array<{ slug: string; title: string; body: string }>;
  /** Products on sale whose country of origin or treatment is not set yet. */
  productsWithoutOrigin?: Array<{ id: number; name: string }>;
}

/** Products still sold (not archived) that say no country of origin or no treatment, by name. */
export async function productsWithoutOrigin(db: Db): Promise<SetupFacts['productsWithoutOrigin']> {
  return db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(and(isNull(products.archivedAt), or(isNull(products.originCountry), isNull(products.treatment))))
    .orderBy(asc(products.name));
}

/** The content pages, as the checklist reads them. */
export async function contentPagesOf(db: Db): Promise<SetupFacts['pages']> {
  return db.select({ slug: contentPages.slug, title: contentPages.title, body: contentPages.body }).from(contentPages);
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Where a content page states a rule the shop computes, and the settings say otherwise: a
 * shipping price, one charge "wherever you live" beside a rural surcharge, no collection while
 * pickup is on. The page is the owner's words, so the shop flags it rather than rewriting it.
 */
export function contentContradictions(pages: SetupFacts['pages'], settings: StoredSettings, delivery: DeliverySettings): SetupItem[] {
  const found: SetupItem[] = [];
  for (const page of pages) {
    const text = page.body.replace(/[*_`]/g, '');
    const flag = (rule: string, detail: string) => found.push({ key: `content:${page.slug}:${rule}`, title: `Check “${page.title}”`, detail, link: '/admin/content' });
    const priced = /shipping[^.\n]{0,60}?\$(\d+(?:\.\d{2})?)|\$(\d+(?:\.\d{2})?)[^.\n]{0,30}?shipping/i.exec(text);
    const statedCents = priced ? Math.round(Number(priced[1] ?? priced[2]) * 100) : null;
    if (statedCents !== null && statedCents !== settings.shippingCents) {
      flag('shipping', `It says shipping is ${dollars(statedCents)}; checkout charges ${dollars(settings.shippingCents)}.`);
    }
    if (delivery.ruralSurchargeCents > 0 && /wherever you live|where you live|anywhere in new zealand/i.test(text) && /shipping|delivery/i.test(text)) {
      flag('rural', `It promises one delivery charge wherever the shopper lives; rural addresses pay ${dollars(delivery.ruralSurchargeCents)} more.`);
    }
    if (delivery.pickup.enabled && /(no|not|n't)[^.\n]{0,40}(collection|collect|pick ?up)/i.test(text)) {
      flag('pickup', 'It says orders cannot be collected; pickup is on in Delivery settings.');
    }
  }
  return found;
}

const isLocal = (url: string | undefined) => {
  if (!url) return true;
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '[::1]' || host.startsWith('127.') || host === '0.0.0.0';
  } catch {
    return true;
  }
};

/**
 * What a new shop still lacks before shoppers can trust it: a bank account of its own, a GST
 * number or the word that it is not registered, links in mail that shoppers can open, mail that
 * is sent, and addresses of its own rather than the seeded sample's.
 */
export function setupChecklist({ settings, delivery, publicUrl, smtpUrl, linkBase, pages, productsWithoutOrigin: unlabelled = [] }: SetupFacts): SetupChecklist {
  const missing: SetupItem[] = [];
  if (!hasBankAccount(settings)) {
    missing.push({ key: 'bank-account', title: 'Add your bank account number', detail: 'Shoppers cannot pay by bank transfer until it is set.', link: '/admin/settings#tax-and-bank' });
  } else if (settings.bankTransfer.accountNumber === sampleBankAccountNumber) {
    missing.push({
      key: 'bank-account',
      title: 'Replace the sample bank account number',
      detail: `Checkout shows ${sampleBankAccountNumber}, the sample the shop was seeded with, which reaches no account.`,
      link: '/admin/settings#tax-and-bank',
    });
  }
  if (!settings.gstNumber && !settings.gstNotRegistered) {
    missing.push({ key: 'gst', title: 'Add your GST number, or say you are not registered', detail: 'Until then receipts charge no GST and carry no GST number.', link: '/admin/settings#tax-and-bank' });
  }
  if (isLocal(publicUrl)) {
    missing.push({ key: 'public-url', title: 'Set PUBLIC_URL to the shop’s address', detail: `Links in e-mails point to ${linkBase}, which shoppers cannot open. Set it where the shop is started (see Configuration in the README).`, link: null });
  }
  if (!smtpUrl) {
    missing.push({ key: 'smtp', title: 'Set SMTP_URL to send e-mail', detail: 'E-mails are written to the outbox folder and never reach shoppers. Set it where the shop is started.', link: null });
  }
  if (settings.contact.address === defaultSettings.contact.address) {
    missing.push({ key: 'shop-address', title: 'Give your own shop address', detail: `Receipts and the contact page show ${settings.contact.address}, the sample address.`, link: '/admin/settings#shop-and-contact' });
  }
  if (delivery.pickup.enabled && delivery.pickup.address === defaultPickupSettings.address) {
    missing.push({ key: 'pickup-address', title: 'Give your own pickup address', detail: `Pickup is on, and shoppers are sent to ${delivery.pickup.address}, the sample address.`, link: '/admin/delivery' });
  }
  if (unlabelled.length) {
    const names = unlabelled.map((product) => product.name);
    missing.push({
      key: 'product-origin',
      title: `Say where ${names.length === 1 ? `${names[0]} is` : `${names.length} products are`} grown and how treated`,
      detail: `New Zealand law asks every offer of fresh fruit to name its country of origin, and irradiated fruit to say so. Not set yet: ${names.join(', ')}.`,
      link: '/admin/products',
    });
  }
  missing.push(...contentContradictions(pages, settings, delivery));
  return { missing };
}
