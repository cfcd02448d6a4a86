/**
 * Business constants from the storefront spec (sections 4, 5 and 9), defined once. Read as
 * `shopRules.name` through `./shop-rules`; each is its own export, so a page's code carries only
 * the constants it reads.
 */

export const currency = 'NZD';
export const locale = 'en-NZ';
/** Spec 9: standard shipping $12 flat; the live amount comes from settings, this is its default. */
export const defaultShippingCents = 1200;
export const freshDeliveryClaim = '24-48 hours';
export const defaultBoxInfo = '9 to 12 Mangoes per Box';
export const descriptionCut = 70;
export const homeProductCount = 3;
export const promoDismissalMs = 24 * 60 * 60 * 1000;
export const searchMinLength = 3;
export const searchDebounceMs = 300;
export const cartSuccessAnimationMs = 2000;
export const newsletterDelayMs = 1500;
export const chartRevealDelayMs = 300;
/** Spec 9: the season chart lists 21 varieties across 12 months. */
export const chartVarietyCount = 21;
export const carouselGroupSize = 3;
/** Prices include GST at 15%; the GST part of a total is round(total * 3 / 23). */
export const gstRateNumerator = 3;
export const gstRateDenominator = 23;
/** A pre-order line has no stock to cap it; this keeps one order's pre-order sensible. */
export const maxPreOrderQuantityPerLine = 20;
export const maintenanceDefaultMessage = 'Our store is currently undergoing scheduled maintenance. Please check back soon!';
export const pageTitle = 'Premium Mangoes Delivered Fresh';
