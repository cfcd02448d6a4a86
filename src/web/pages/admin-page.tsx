import { Navigate, useParams } from 'react-router';
import { adminSections } from '../../contracts/routes';
import { AdminClaims } from '../features/admin/claims/admin-claims';
import { AdminDelivery } from '../features/admin/delivery/admin-delivery';
import { AdminDispatch } from '../features/admin/dispatch/admin-dispatch';
import { AdminContent } from '../features/admin/content/admin-content';
import { AdminTestimonials } from '../features/admin/content/admin-testimonials';
import { AdminCustomers } from '../features/admin/customers/admin-customers';
import { AdminDashboard } from '../features/admin/dashboard/admin-dashboard';
import { AdminInventory } from '../features/admin/inventory/admin-inventory';
import { AdminRecalls } from '../features/admin/inventory/admin-recalls';
import { AdminReviews } from '../features/admin/reviews/admin-reviews';
import { AdminOrders } from '../features/admin/orders/admin-orders';
import { AdminPixelTest } from '../features/admin/pixel-test/admin-pixel-test';
import { AdminProducts } from '../features/admin/products/admin-products';
import { AdminPromoCodes } from '../features/admin/promos/admin-promo-codes';
import { AdminReports } from '../features/admin/reports/admin-reports';
import { AdminSettings } from '../features/admin/settings/admin-settings';
import { AdminSubscriptions } from '../features/admin/subscriptions/admin-subscriptions';
import { AdminBar } from '../features/admin/shared/admin-bar';
import { AdminGate } from '../features/admin/shared/admin-gate';
import { AdminLayout } from '../features/admin/shared/admin-layout';

type Section = (typeof adminSections)[number];

const screens: Record<Section, () => React.JSX.Element> = {
  products: AdminProducts,
  orders: AdminOrders,
  subscriptions: AdminSubscriptions,
  dispatch: AdminDispatch,
  claims: AdminClaims,
  reviews: AdminReviews,
  inventory: AdminInventory,
  recalls: AdminRecalls,
  delivery: AdminDelivery,
  customers: AdminCustomers,
  'promo-codes': AdminPromoCodes,
  testimonials: AdminTestimonials,
  reports: AdminReports,
  content: AdminContent,
  settings: AdminSettings,
  'pixel-test': AdminPixelTest,
};

/** The admin area: a lazy chunk of its own, which the storefront never loads. */
export default function AdminPage() {
  const { section } = useParams();
  const known = section === undefined || (adminSections as readonly string[]).includes(section);
  if (!known) return <Navigate to="/admin" replace />;
  const Screen = section ? screens[section as Section] : AdminDashboard;
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2">
        Skip to content
      </a>
      <AdminBar />
      <main id="main" className="mx-auto min-h-screen w-full max-w-[1400px] flex-1 px-4 py-6">
        <AdminGate>
          <AdminLayout>
            <Screen />
          </AdminLayout>
        </AdminGate>
      </main>
    </>
  );
}
