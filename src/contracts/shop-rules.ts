/** Business constants from the storefront spec (sections 4, 5 and 9), defined once. */
export * as shopRules from './shop-rule-values';

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
