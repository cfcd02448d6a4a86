import { Link, Navigate, useParams } from 'react-router';
import { adminSections } from '../../contracts/routes';
import { AdminDashboard } from '../features/admin/admin-dashboard';
import { AdminGate } from '../features/admin/admin-gate';
import { AdminInventory } from '../features/admin/admin-inventory';
import { AdminLayout, adminSectionTitles } from '../features/admin/admin-layout';
import { AdminOrders } from '../features/admin/admin-orders';
import { usePageTitle } from '../lib/page-title';

type Section = (typeof adminSections)[number];

/** The admin area: a lazy chunk of its own, which the storefront never loads. */
export default function AdminPage() {
  const { section } = useParams();
  const known = section === undefined || (adminSections as readonly string[]).includes(section);
  usePageTitle(section && known ? `Admin: ${adminSectionTitles[section as Section]}` : 'Admin Dashboard');
  if (!known) return <Navigate to="/admin" replace />;
  return (
    <AdminGate>
      <AdminLayout>{section ? <AdminSection section={section as Section} /> : <AdminDashboard />}</AdminLayout>
    </AdminGate>
  );
}

function AdminSection({ section }: { section: Section }) {
  if (section === 'orders') return <AdminOrders />;
  if (section === 'inventory') return <AdminInventory />;
  return (
    <section className="grid gap-3">
      <h1 className="text-4xl font-semibold">{adminSectionTitles[section]}</h1>
      <p className="text-ink-500">This admin screen is not open yet.</p>
      <Link to="/admin/orders" className="font-semibold text-mango-700 hover:underline">
        Go to orders
      </Link>
    </section>
  );
}
