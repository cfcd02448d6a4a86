import { Menu, Search, ShoppingCart, X } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-provider';
import { openAuthDialog } from '../auth/auth-dialog';
import { useCart } from '../cart/cart-provider';
import { SearchDialog } from '../search/search-dialog';
import { useLogOut } from './use-log-out';

const navLinks = [
  { to: '/', label: 'Home' },
  { to: '/shop', label: 'Shop' },
  { to: '/about', label: 'About Us' },
  { to: '/contact', label: 'Contact Us' },
];

const navClass = ({ isActive }: { isActive: boolean }) => `rounded-md px-1 py-1 ${isActive ? 'text-mango-700' : 'hover:text-mango-700'}`;

/** Spec 2: sticky header; Sign In, or the username link, Logout (and Admin for admins); mobile menu. */
export function SiteHeader() {
  const { user } = useAuth();
  const { itemCount, setDrawerOpen } = useCart();
  const logOut = useLogOut();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const location = useLocation();
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

  return (
    <header className="sticky top-0 z-30 border-b border-mango-50 bg-cream-50/85 backdrop-blur">
      <div className="mx-auto flex max-w-[1200px] items-center justify-between gap-4 px-4 py-3">
        <Link to="/" aria-label="Mango Shop home" className="shrink-0">
          <img src="/images/logo.svg" alt="Mango Shop" width={160} height={38} />
        </Link>
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex gap-6 text-sm font-medium">
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={navClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2 text-sm font-medium">
          <div className="hidden items-center gap-3 md:flex">
            {user ? (
              <>
                {user.isAdmin && <Link to="/admin" className="hover:text-mango-700">Admin</Link>}
                <Link to="/account" className="hover:text-mango-700">{user.username}</Link>
                <button type="button" onClick={() => void logOut()} className="rounded-full border border-ink-900 px-4 py-1.5 hover:bg-mango-50">
                  Logout
                </button>
              </>
            ) : (
              <button type="button" onClick={() => openAuthDialog('login')} className="rounded-full bg-mango-500 px-4 py-1.5 font-semibold text-ink-900 hover:bg-mango-600">
                Sign In
              </button>
            )}
          </div>
          {user && (
            // On a phone the signed-in state shows too: the shopper's initial, leading to their account.
            <Link
              to="/account"
              aria-label={`Your account (${user.username})`}
              title={user.username}
              className="flex size-8 items-center justify-center rounded-full bg-leaf-700 text-sm font-bold uppercase text-white hover:bg-leaf-700/90 md:hidden">
              <span aria-hidden="true">{[...user.username][0]}</span>
            </Link>
          )}
          <button type="button" onClick={() => setSearchOpen(true)} aria-label="Search products" className="rounded-full p-2 hover:bg-mango-50">
            <Search className="size-5" aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={() => setDrawerOpen(true)}
            aria-label={`Cart, ${itemCount} ${itemCount === 1 ? 'item' : 'items'}`}
            className="relative rounded-full p-2 hover:bg-mango-50"
          >
            <ShoppingCart className="size-5" aria-hidden="true" />
            {itemCount > 0 && (
              <span className="absolute -right-0.5 -top-0.5 flex min-w-5 items-center justify-center rounded-full bg-mango-500 px-1 text-xs font-bold text-ink-900 tabular-nums" aria-hidden="true">
                {itemCount}
              </span>
            )}
          </button>
          <button
            type="button"
            className="rounded-full p-2 hover:bg-mango-50 md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          </button>
        </div>
      </div>
      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t border-mango-50 bg-cream-50 px-4 pb-4 md:hidden">
          <ul className="grid gap-1 pt-2 text-base font-medium">
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={({ isActive }) => `block rounded-lg px-3 py-2 ${isActive ? 'bg-mango-50 text-mango-700' : 'hover:bg-mango-50'}`}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            {user ? (
              <>
                <li><Link to="/account" className="block rounded-lg px-3 py-2 hover:bg-mango-50">My Account</Link></li>
                {user.isAdmin && <li><Link to="/admin" className="block rounded-lg px-3 py-2 hover:bg-mango-50">Admin Dashboard</Link></li>}
                <li><button type="button" onClick={() => void logOut()} className="block w-full rounded-lg px-3 py-2 text-left hover:bg-mango-50">Logout</button></li>
              </>
            ) : (
              <li>
                <button type="button" onClick={() => openAuthDialog('login')} className="block w-full rounded-lg px-3 py-2 text-left hover:bg-mango-50">
                  Sign In
                </button>
              </li>
            )}
          </ul>
        </nav>
      )}
      <SearchDialog open={searchOpen} onOpenChange={setSearchOpen} />
    </header>
  );
}
