import type { DeliverySettings } from '../../../contracts/delivery';
import { defaultPickupSettings } from '../../../contracts/pickup';
import { sampleBankAccountNumber, type StoredSettings } from '../../../contracts/settings';
import type { SetupChecklist, SetupItem } from '../../../contracts/setup';
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
export function setupChecklist({ settings, delivery, publicUrl, smtpUrl, linkBase }: SetupFacts): SetupChecklist {
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
  return { missing };
}
