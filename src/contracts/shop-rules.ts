/** Business constants from the storefront spec (sections 4, 5 and 9), defined once. */
export * as shopRules from './shop-rule-values';

/**
 * Spec 9: toast durations in milliseconds, one toast at a time. The spec's "800 ms" is how long a
 * dismissed toast lingers before removal; a toast with no duration of its own stays 5 s.
 */
export * as toastDurations from './toast-durations';

/** How long the browser's query cache keeps answers fresh, and keeps them at all. */
export * as cacheTimes from './cache-times';
