/**
 * Spec 9's toast durations in milliseconds, read as `toastDurations.name` through `./shop-rules`;
 * each is its own export, so a page's code carries only the ones it reads.
 */

/** A toast with no duration of its own. */
export const standard = 5000;
/** The spec's "800 ms": how long a dismissed toast lingers before removal. */
export const removeDelay = 800;
export const cart = 1000;
export const promoCopy = 3000;
export const preOrder = 3000;
export const newsletterSuccess = 5000;
