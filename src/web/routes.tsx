import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { appRoutes, fixedContentPaths } from '../contracts/routes';
import { Spinner } from './components/ui/spinner';
import { AppFrame } from './features/frame/app-frame';
import { MaintenanceGate } from './features/maintenance/maintenance-gate';

const HomePage = lazy(() => import('./pages/home-page'));
const ShopPage = lazy(() => import('./pages/shop-page'));
const ProductPage = lazy(() => import('./pages/product-page'));
const ContentPage = lazy(() => import('./pages/content-page'));
const MaintenancePage = lazy(() => import('./pages/maintenance-page'));
const NotFoundPage = lazy(() => import('./pages/not-found-page'));
const AuthPage = lazy(() => import('./pages/auth-page'));
const CartPage = lazy(() => import('./pages/cart-page'));
const ResetPasswordPage = lazy(() => import('./pages/reset-password-page'));
const CheckoutPage = lazy(() => import('./pages/checkout-page'));
const SuccessPage = lazy(() => import('./pages/success-page'));
const AccountPage = lazy(() => import('./pages/account-page'));
const AdminPage = lazy(() => import('./pages/admin-page'));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner />}>{children}</Suspense>;
}

/** Every route of spec section 2, each page a lazy module. */
export function AppRoutes() {
  return (
    <AppFrame>
      <MaintenanceGate>
      <Routes>
        <Route path={appRoutes.home} element={<Page><HomePage /></Page>} />
        <Route path={appRoutes.shop} element={<Page><ShopPage /></Page>} />
        <Route path={appRoutes.product} element={<Page><ProductPage /></Page>} />
        <Route path={appRoutes.content} element={<Page><ContentPage /></Page>} />
        <Route path={appRoutes.maintenance} element={<Page><MaintenancePage /></Page>} />
        <Route path={appRoutes.auth} element={<Page><AuthPage /></Page>} />
        <Route path={appRoutes.cart} element={<Page><CartPage /></Page>} />
        <Route path={appRoutes.resetPassword} element={<Page><ResetPasswordPage /></Page>} />
        <Route path={appRoutes.checkout} element={<Page><CheckoutPage /></Page>} />
        <Route path={appRoutes.success} element={<Page><SuccessPage /></Page>} />
        {[appRoutes.account, appRoutes.accountOrder, appRoutes.order].map((path) => (
          <Route key={path} path={path} element={<Page><AccountPage /></Page>} />
        ))}
        {Object.entries(fixedContentPaths).map(([slug, path]) => (
          <Route key={path} path={path} element={<Page><ContentPage slug={slug} /></Page>} />
        ))}
        {[appRoutes.admin, appRoutes.adminSection].map((path) => (
          <Route key={path} path={path} element={<Page><AdminPage /></Page>} />
        ))}
        <Route path="*" element={<Page><NotFoundPage /></Page>} />
      </Routes>
      </MaintenanceGate>
    </AppFrame>
  );
}
