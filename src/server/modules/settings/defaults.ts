import { claimWindowBounds } from '../../../contracts/claims';
import { reviewMailDayBounds } from '../../../contracts/settings';
import { shopRules } from '../../../contracts/shop-rules';
import { defaultXeroSalesAccount } from '../../../contracts/exports';
import type { StoredSettings } from '../../../contracts/settings';

/** The settings a new shop starts with; staff change them from the admin area. */
export const defaultSettings: StoredSettings = {
  siteName: 'Mango Shop',
  contact: {
    email: 'hello@mangoshop.co.nz',
    phone: '09 555 0142',
    address: '24 Karaka Street, Mount Eden, Auckland 1024',
  },
  socialMedia: {
    facebook: 'https://www.facebook.com/mangoshopnz',
    instagram: 'https://www.instagram.com/mangoshopnz',
    whatsapp: 'https://wa.me/6495550142',
  },
  maintenance: { enabled: false, message: shopRules.maintenanceDefaultMessage },
  openingTime: '09:00',
  closingTime: '17:00',
  daysOpen: { Mon: true, Tue: true, Wed: true, Thu: true, Fri: true, Sat: true, Sun: false },
  analytics: { gaTrackingId: '', metaPixelId: '' },
  gstNumber: '',
  gstNotRegistered: false,
  xeroSalesAccount: defaultXeroSalesAccount,
  bankTransfer: { accountName: 'Mango Shop Ltd', accountNumber: '', bankName: '' },
  shippingCents: shopRules.defaultShippingCents,
  unpaidOrderTimeoutDays: 3,
  lowStockThreshold: 5,
  bestBeforeWarningDays: 5,
  claimWindowHours: claimWindowBounds.default,
  reviewMailDays: reviewMailDayBounds.default,
};
