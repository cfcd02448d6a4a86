/** Issue rules: the order lifecycle, with cancelled (stock returned) and refunded beside it. */
export const orderStatuses = ['pending_payment', 'paid', 'packed', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const paymentMethods = ['bank_transfer', 'stripe'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** The 16 regions of New Zealand, as a shipping address names them. */
export const nzRegions = [
  'Northland',
  'Auckland',
  'Waikato',
  'Bay of Plenty',
  'Gisborne',
  "Hawke's Bay",
  'Taranaki',
  'Manawatū-Whanganui',
  'Wellington',
  'Tasman',
  'Nelson',
  'Marlborough',
  'West Coast',
  'Canterbury',
  'Otago',
  'Southland',
] as const;
export type NzRegion = (typeof nzRegions)[number];

/** Why stock changed: every change is a movement, so stock can be explained. */
export const stockMovementReasons = ['order', 'cancellation', 'adjustment'] as const;
export type StockMovementReason = (typeof stockMovementReasons)[number];
