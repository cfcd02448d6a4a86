import { Navigate, useParams } from 'react-router';
import { adminSections } from '../../contracts/routes';
import { AdminContent } from '../features/admin/admin-content';
import { AdminCustomers } from '../features/admin/admin-customers';
import { AdminDashboard } from '../features/admin/admin-dashboard';
import { AdminGate } from '../features/admin/admin-gate';
import { AdminInventory } from '../features/admin/admin-inventory';
import { AdminLayout, adminSectionTitles } from '../features/admin/admin-layout';
import { AdminOrders } from '../features/admin/admin-orders';
import { AdminPixelTest } from '../features/admin/admin-pixel-test';
import { AdminProducts } from '../features/admin/admin-products';
import { AdminPromoCodes } from '../features/admin/admin-promo-codes';
import { AdminReports } from '../features/admin/admin-reports';
import { AdminSettings } from '../features/admin/admin-settings';
import { AdminTestimonials } from '../features/admin/admin-testimonials';
import { usePageTitle } from '../lib/page-title';

type Section = (typeof adminSections)[number];

const screens: Record<Section, () => React.JSX.Element> = {
  products: AdminProducts,
  orders: AdminOrders,
  inventory: AdminInventory,
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
  usePageTitle(section && known ? `Admin: ${adminSectionTitles[section as Section]}` : 'Admin Dashboard');
  if (!known) return <Navigate to="/admin" replace />;
  const Screen = section ? screens[section as Section] : AdminDashboard;
  return (
    <AdminGate>
      <AdminLayout>
        <Screen />
      </AdminLayout>
    </AdminGate>
  );
}
