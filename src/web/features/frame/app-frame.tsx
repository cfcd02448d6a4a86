import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';

const navLinks = [
  { to: '/', label: 'Home' },
  { to: '/shop', label: 'Shop' },
  { to: '/about', label: 'About Us' },
  { to: '/contact', label: 'Contact Us' },
];

/** Spec 2's page frame: sticky header with logo and nav, footer with the shop's links. */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-30 border-b border-mango-50 bg-cream-50/85 backdrop-blur">
        <div className="mx-auto flex max-w-[1200px] items-center justify-between gap-4 px-4 py-3">
          <Link to="/" aria-label="Mango Shop home">
            <img src="/images/logo.svg" alt="Mango Shop" width={160} height={38} />
          </Link>
          <nav aria-label="Main">
            <ul className="flex gap-4 text-sm font-medium sm:gap-6">
              {navLinks.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end className={({ isActive }) => (isActive ? 'text-mango-600' : 'hover:text-mango-600')}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-[1200px] flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="border-t border-mango-50 bg-white">
        <div className="mx-auto flex max-w-[1200px] flex-wrap gap-x-6 gap-y-2 px-4 py-8 text-sm text-ink-500">
          <Link to="/shipping-policy">Shipping Policy</Link>
          <Link to="/refund-policy">Refund Policy</Link>
          <Link to="/terms-conditions">Terms &amp; Conditions</Link>
          <Link to="/privacy-policy">Privacy Policy</Link>
          <Link to="/mango-season-guide">Mango Season Guide</Link>
        </div>
      </footer>
    </div>
  );
}
