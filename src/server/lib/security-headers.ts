/**
 * The Content-Security-Policy of the shop. Analytics (spec 7) loads GA4 and the Meta pixel only when
 * their ids are set, so their hosts are allowed; nothing else outside the shop is.
 */
const analyticsScripts = ['https://www.googletagmanager.com', 'https://connect.facebook.net'];
const analyticsConnect = ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com', 'https://www.facebook.com'];
const analyticsImages = ['https://*.google-analytics.com', 'https://www.googletagmanager.com', 'https://www.facebook.com'];

export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", ...analyticsScripts],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', ...analyticsImages],
  fontSrc: ["'self'"],
  connectSrc: ["'self'", ...analyticsConnect],
  frameSrc: ["'self'"],
  frameAncestors: ["'none'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};
