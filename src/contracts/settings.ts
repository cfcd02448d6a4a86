import { z } from 'zod';
import { dayKeys, type DayKey } from './days';
import { emailPattern } from './email';
import { xeroAccountCodeField } from './exports';

export { dayKeys, type DayKey };

/** Hours after delivery that a freshness claim may be made (decision 0018): settings choose within these. */
export const claimWindowBounds = { min: 1, max: 24 * 30, default: 48 } as const;

/** Days after the ready-to-eat date that the "How were your mangoes?" e-mail goes. */
export const reviewMailDayBounds = { min: 1, max: 30, default: 3 } as const;

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

const optionalLink = z.string().trim().max(300, 'Link must be at most 300 characters').refine((v) => v === '' || /^https:\/\/\S+$/.test(v), 'Link must start with https://');

/** Everything the shop stores as settings; the admin settings screen edits this whole object. */
export const storedSettingsSchema = z
  .strictObject({
    siteName: z.string({ error: 'Site name is required' }).trim().min(2, 'Site name is required').max(80, 'Site name must be at most 80 characters'),
    contact: z.strictObject({
      email: z.string({ error: 'Please enter a valid email address' }).trim().max(254, 'Email must be at most 254 characters').regex(emailPattern, 'Please enter a valid email address'),
      phone: z.string({ error: 'Phone must be text' }).trim().max(30, 'Phone must be at most 30 characters'),
      address: z.string({ error: 'Address must be text' }).trim().max(200, 'Address must be at most 200 characters'),
    }),
    socialMedia: z.strictObject({ facebook: optionalLink, instagram: optionalLink, whatsapp: optionalLink }),
    maintenance: z.strictObject({
      enabled: z.boolean({ error: 'Must be true or false' }),
      message: z.string({ error: 'Message must be text' }).trim().max(500, 'Message must be at most 500 characters'),
    }),
    openingTime: z.string({ error: 'Use 24-hour HH:MM' }).regex(hhmm, 'Use 24-hour HH:MM').nullable(),
    closingTime: z.string({ error: 'Use 24-hour HH:MM' }).regex(hhmm, 'Use 24-hour HH:MM').nullable(),
    daysOpen: z.strictObject({ Mon: z.boolean(), Tue: z.boolean(), Wed: z.boolean(), Thu: z.boolean(), Fri: z.boolean(), Sat: z.boolean(), Sun: z.boolean() }),
    analytics: z.strictObject({
      gaTrackingId: z.string().trim().max(40, 'A GA4 id looks like G-XXXXXXX').refine((v) => v === '' || /^G-[A-Z0-9]{4,20}$/.test(v), 'A GA4 id looks like G-XXXXXXX'),
      metaPixelId: z.string().trim().max(40, 'A Meta pixel id is digits only').refine((v) => v === '' || /^\d{6,20}$/.test(v), 'A Meta pixel id is digits only'),
    }),
    /** The Xero account sales are coded to in the invoices export. */
    xeroSalesAccount: xeroAccountCodeField,
    /** Inland Revenue's GST number: 8 or 9 digits, written 12-345-678 or 123-456-789. */
    gstNumber: z.string({ error: 'GST number must be text' }).trim().refine((v) => v === '' || /^\d{2,3}-\d{3}-\d{3}$/.test(v), 'A GST number looks like 123-456-789'),
    /** The owner has said the shop is not registered for GST (so an empty GST number is not a missing one). */
    gstNotRegistered: z.boolean({ error: 'Must be true or false' }).default(false),
    bankTransfer: z.strictObject({
      accountName: z.string({ error: 'Account name must be text' }).trim().max(100, 'Account name must be at most 100 characters'),
      /** A New Zealand account: bank-branch-account-suffix, such as 12-3456-0123456-00. */
      accountNumber: z
        .string({ error: 'Account number must be text' })
        .trim()
        .refine((v) => v === '' || /^\d{2}-\d{4}-\d{7}-\d{2,3}$/.test(v), 'A New Zealand account number looks like 12-3456-0123456-00'),
      bankName: z.string({ error: 'Bank name must be text' }).trim().max(60, 'Bank name must be at most 60 characters'),
    }),
    shippingCents: z.number({ error: 'Shipping must be an amount in dollars' }).int('Shipping must be whole cents').min(0, 'Shipping cannot be negative').max(100_000, 'Shipping must be at most $1,000.00'),
    unpaidOrderTimeoutDays: z.number({ error: 'Enter a number of days' }).int('Enter a whole number of days').min(1, 'At least 1 day').max(30, 'At most 30 days'),
    lowStockThreshold: z.number({ error: 'Enter a number of boxes' }).int('Enter a whole number of boxes').min(0, 'Cannot be negative').max(1000, 'At most 1000 boxes'),
    /** The dashboard lists batches whose best-before is at most this many days away. */
    bestBeforeWarningDays: z.number({ error: 'Enter a number of days' }).int('Enter a whole number of days').min(0, 'Cannot be negative').max(60, 'At most 60 days'),
    /** Hours after delivery that a shopper may report a problem with the mangoes (a freshness claim). */
    claimWindowHours: z
      .number({ error: 'Enter a number of hours' })
      .int('Enter a whole number of hours')
      .min(claimWindowBounds.min, `At least ${claimWindowBounds.min} hour`)
      .max(claimWindowBounds.max, `At most ${claimWindowBounds.max} hours (30 days)`),
    /** Days after an order's fruit should be ready to eat that its shopper is asked "How were your mangoes?". */
    reviewMailDays: z
      .number({ error: 'Enter a number of days' })
      .int('Enter a whole number of days')
      .min(reviewMailDayBounds.min, `At least ${reviewMailDayBounds.min} day`)
      .max(reviewMailDayBounds.max, `At most ${reviewMailDayBounds.max} days`)
      .default(reviewMailDayBounds.default),
  })
  .superRefine((settings, context) => {
    if ((settings.openingTime === null) !== (settings.closingTime === null)) {
      context.addIssue({ code: 'custom', path: [settings.openingTime === null ? 'openingTime' : 'closingTime'], message: 'Give both opening and closing times, or neither' });
    } else if (settings.openingTime && settings.closingTime && settings.closingTime <= settings.openingTime) {
      context.addIssue({ code: 'custom', path: ['closingTime'], message: 'Closing time must be after opening time' });
    }
  });
export type StoredSettings = z.output<typeof storedSettingsSchema>;

/**
 * Spec 3: the site settings as GET /api/settings answers them, with both maintenance forms.
 * Payment and tax details are included because receipts and the success page show them.
 */
export interface PublicSettings {
  siteName: string;
  contact: StoredSettings['contact'];
  socialMedia: StoredSettings['socialMedia'];
  maintenance: StoredSettings['maintenance'];
  maintenance_mode_enabled: boolean;
  maintenance_message: string;
  openingTime: string | null;
  closingTime: string | null;
  daysOpen: Record<DayKey, boolean>;
  analytics: StoredSettings['analytics'];
  gstNumber: string;
  bankTransfer: StoredSettings['bankTransfer'];
  shipping: number;
}

/**
 * The seeded shop's bank account, so a new shop can be tried end to end by bank transfer. It is a
 * sample that reaches no account (no New Zealand bank has the code 99); shoppers are told so
 * beside it, and the dashboard's setup list asks the owner to replace it.
 */
export const sampleBankAccountNumber = '99-0000-0000000-00';
