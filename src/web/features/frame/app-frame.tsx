import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { loadedWhenNear } from '../../lib/loaded-when-near';
import { AnalyticsTracker } from '../analytics/analytics-tracker';
import { AuthDialog } from '../auth/auth-dialog';
import { CartDrawer } from '../cart/cart-drawer';
import { MaintenanceBanner } from '../maintenance/maintenance-banner';
import { PreOrderSignIn } from '../pre-order/pre-order-sign-in';
import { PromoBanner } from '../promo/promo-banner';
import { SiteHeader } from './site-header';

// Below every page's first screen: its code loads as the shopper scrolls towards it (decision 0039).
const SiteFooter = loadedWhenNear(() => import('./site-footer').then((module) => module.SiteFooter));

/** Spec 2's page frame around every page. */
export function AppFrame({ children, dismissedPromoId }: { children: ReactNode; dismissedPromoId: number | null }) {
  // The admin is its own place: no promo, shop menu, cart or footer; its bar lives in its own chunk.
  if (useLocation().pathname.startsWith('/admin')) {
    return (
      <div className="flex min-h-screen flex-col">
        <MaintenanceBanner />
        {children}
        <AuthDialog />
        <AnalyticsTracker />
      </div>
    );
  }
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2">
        Skip to content
      </a>
      <PromoBanner dismissedId={dismissedPromoId} />
      <MaintenanceBanner />
      <SiteHeader />
      {/* At least a screen tall, so the footer never shows while a page loads and then jumps away. */}
      <main id="main" className="mx-auto min-h-screen w-full max-w-[1200px] flex-1 px-4 py-8">
        {children}
      </main>
      <SiteFooter />
      <AuthDialog />
      <PreOrderSignIn />
      <CartDrawer />
      <AnalyticsTracker />
    </div>
  );
}
