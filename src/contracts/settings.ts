import { z } from 'zod';
import { dayKeys, type DayKey } from './days';

export { dayKeys, type DayKey };

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

const optionalLink = z.string().trim().max(300, 'Link must be at most 300 characters').refine((v) => v === '' || /^https:\/\/\S+$/.test(v), 'Link must start with https://');

/** Everything the shop stores as settings; the admin settings screen edits this whole object. */
export const storedSettingsSchema = z.strictObject({
  siteName: z.string().trim().min(2, 'Site name is required').max(80, 'Site name must be at most 80 characters'),
  contact: z.strictObject({
    email: z.string().trim().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address'),
    phone: z.string().trim().max(30, 'Phone must be at most 30 characters'),
    address: z.string().trim().max(200, 'Address must be at most 200 characters'),
  }),
  socialMedia: z.strictObject({ facebook: optionalLink, instagram: optionalLink, whatsapp: optionalLink }),
  maintenance: z.strictObject({
    enabled: z.boolean(),
    message: z.string().trim().max(500, 'Message must be at most 500 characters'),
  }),
  openingTime: z.string().regex(hhmm, 'Use 24-hour HH:MM').nullable(),
  closingTime: z.string().regex(hhmm, 'Use 24-hour HH:MM').nullable(),
  daysOpen: z.strictObject({ Mon: z.boolean(), Tue: z.boolean(), Wed: z.boolean(), Thu: z.boolean(), Fri: z.boolean(), Sat: z.boolean(), Sun: z.boolean() }),
  analytics: z.strictObject({
    gaTrackingId: z.string().trim().max(40).refine((v) => v === '' || /^G-[A-Z0-9]{4,20}$/.test(v), 'A GA4 id looks like G-XXXXXXX'),
    metaPixelId: z.string().trim().max(40).refine((v) => v === '' || /^\d{6,20}$/.test(v), 'A Meta pixel id is digits only'),
  }),
  gstNumber: z.string().trim().max(20, 'GST number must be at most 20 characters'),
  bankTransfer: z.strictObject({
    accountName: z.string().trim().max(100),
    accountNumber: z.string().trim().max(30),
    bankName: z.string().trim().max(60),
  }),
  shippingCents: z.number().int().min(0, 'Shipping cannot be negative').max(100_000),
  unpaidOrderTimeoutDays: z.number().int().min(1, 'At least 1 day').max(30, 'At most 30 days'),
  lowStockThreshold: z.number().int().min(0).max(1000),
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
