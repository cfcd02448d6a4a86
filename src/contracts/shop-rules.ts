/** Business constants from the storefront spec (sections 4, 5 and 9), defined once. */
export const shopRules = {
  currency: 'NZD',
  locale: 'en-NZ',
  /** Spec 9: standard shipping $12 flat; the live amount comes from settings, this is its default. */
  defaultShippingCents: 1200,
  freshDeliveryClaim: '24-48 hours',
  defaultBoxInfo: '9 to 12 Mangoes per Box',
  descriptionCut: 70,
  homeProductCount: 3,
  promoDismissalMs: 24 * 60 * 60 * 1000,
  searchMinLength: 3,
  searchDebounceMs: 300,
  cartSuccessAnimationMs: 2000,
  newsletterDelayMs: 1500,
  chartRevealDelayMs: 300,
  /** Spec 9: the season chart lists 21 varieties across 12 months. */
  chartVarietyCount: 21,
  carouselGroupSize: 3,
  /** Prices include GST at 15%; the GST part of a total is round(total * 3 / 23). */
  gstRateNumerator: 3,
  gstRateDenominator: 23,
  /** A pre-order line has no stock to cap it; this keeps one order's pre-order sensible. */
  maxPreOrderQuantityPerLine: 20,
  maintenanceDefaultMessage:
    'Our store is currently undergoing scheduled maintenance. Please check back soon!',
  pageTitle: 'Premium Mangoes Delivered Fresh',
} as const;

/**
 * Spec 9: toast durations in milliseconds, one toast at a time. The spec's "800 ms" is how long a
 * dismissed toast lingers before removal; a toast with no duration of its own stays 5 s.
 */
export const toastDurations = {
  default: 5000,
  removeDelay: 800,
  cart: 1000,
  promoCopy: 3000,
  preOrder: 3000,
  newsletterSuccess: 5000,
} as const;

export const cacheTimes = {
  settingsMs: 5 * 60 * 1000,
  productsStaleMs: 5 * 60 * 1000,
  productsKeepMs: 10 * 60 * 1000,
  testimonialsMs: 5 * 60 * 1000,
  /** Pages, banners and offers the server put in the page: not asked for again when it hydrates. */
  pageContentMs: 5 * 60 * 1000,
} as const;
