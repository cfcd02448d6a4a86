/**
 * How long the browser's query cache keeps answers, in milliseconds, read as `cacheTimes.name`
 * through `./shop-rules`; each is its own export, so a page's code carries only the ones it reads.
 */

export const settingsMs = 5 * 60 * 1000;
export const productsStaleMs = 5 * 60 * 1000;
export const productsKeepMs = 10 * 60 * 1000;
export const testimonialsMs = 5 * 60 * 1000;
/** Pages, banners and offers the server put in the page: not asked for again when it hydrates. */
export const pageContentMs = 5 * 60 * 1000;
