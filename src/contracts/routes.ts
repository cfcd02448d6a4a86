import { resetPasswordPath } from './reset-password-path';

/**
 * Spec 2: every route of the web app (src/web/routes.ts makes them route modules); any other path
 * is the spec's 404 page, answered with HTTP 404.
 */
export const appRoutes = {
  home: '/',
  auth: '/auth',
  shop: '/shop',
  product: '/product/:id',
  cart: '/cart',
  checkout: '/checkout',
  success: '/success',
  account: '/account',
  accountOrder: '/account/orders/:id',
  order: '/order/:id',
  maintenance: '/maintenance',
  refundPolicy: '/refund-policy',
  about: '/about',
  contact: '/contact',
  shippingPolicy: '/shipping-policy',
  termsConditions: '/terms-conditions',
  privacyPolicy: '/privacy-policy',
  mangoSeasonGuide: '/mango-season-guide',
  content: '/content/:slug',
  testContent: '/test-content',
  resetPassword: resetPasswordPath,
  admin: '/admin',
  adminSection: '/admin/:section',
} as const;

/** Spec 2: the content pages that have a fixed route of their own, by slug; others show at /content/:slug. */
export const fixedContentPaths: Readonly<Record<string, string>> = {
  'about-us': appRoutes.about,
  contact: appRoutes.contact,
  'shipping-policy': appRoutes.shippingPolicy,
  'refund-policy': appRoutes.refundPolicy,
  'terms-conditions': appRoutes.termsConditions,
  'privacy-policy': appRoutes.privacyPolicy,
  'mango-season-guide': appRoutes.mangoSeasonGuide,
  'test-content': appRoutes.testContent,
};

/** Where a content page is shown: its fixed route, or /content/:slug. */
export function contentPagePath(slug: string): string {
  return fixedContentPaths[slug] ?? `/content/${slug}`;
}

export const adminSections = [
  'products',
  'orders',
  'subscriptions',
  'dispatch',
  'claims',
  'reviews',
  'inventory',
  'recalls',
  'delivery',
  'customers',
  'promo-codes',
  'testimonials',
  'reports',
  'content',
  'settings',
  'pixel-test',
] as const;
