import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { adminSections } from '../../../../contracts/routes';

export const adminSectionTitles: Record<(typeof adminSections)[number], string> = {
  products: 'Products',
  orders: 'Orders',
  subscriptions: 'Season boxes',
  dispatch: 'Dispatch',
  claims: 'Claims',
  reviews: 'Reviews',
  inventory: 'Inventory',
  recalls: 'Recalls',
  delivery: 'Delivery',
  customers: 'Customers',
  'promo-codes': 'Promo codes',
  testimonials: 'Testimonials',
  reports: 'Reports',
  content: 'Content',
  settings: 'Settings',
  'pixel-test': 'Pixel test',
};

/** The admin area's frame: its sections beside (desktop) or above (mobile) the screen. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const link = ({ isActive }: { isActive: boolean }) =>
    `block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'bg-mango-500 text-ink-900' : 'hover:bg-mango-50'}`;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[12rem_minmax(0,1fr)]">
      <nav aria-label="Admin sections" className="min-w-0 overflow-x-auto lg:overflow-visible">
        <ul className="flex gap-1 lg:grid">
          <li>
            <NavLink to="/admin" end className={link}>
              Dashboard
            </NavLink>
          </li>
          {adminSections.map((section) => (
            <li key={section}>
              <NavLink to={`/admin/${section}`} className={link}>
                {adminSectionTitles[section]}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
