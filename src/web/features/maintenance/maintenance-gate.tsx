import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { PublicSettings } from '../../../contracts/settings';
import { useAuth } from '../auth/auth-provider';
import { hasLocalBypass, skipsMaintenanceCheck } from './maintenance-rules';

/**
 * Spec 4's maintenance check for client navigations. A page's first request is checked by the
 * server (root.tsx), with the settings it sends along; the server refuses visitors' writes anyway
 * (ARCHITECTURE difference 5).
 */
export function MaintenanceGate({ children, settings, bypassCookie }: { children: ReactNode; settings: PublicSettings | null; bypassCookie: boolean }) {
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();

  // Spec 4: on /admin with a bypass, the query string is cleared from the address.
  const bypassOnAdmin = location.pathname.startsWith('/admin') && new URLSearchParams(location.search).get('bypass') === 'maintenance';
  useEffect(() => {
    if (bypassOnAdmin) navigate(location.pathname, { replace: true });
  }, [bypassOnAdmin, location.pathname, navigate]);

  // The server sees the flag's cookie, the browser the flag itself: either lets the page show.
  const skips = skipsMaintenanceCheck(location.pathname, location.search, bypassCookie || (typeof window !== 'undefined' && hasLocalBypass()));
  if (!skips && settings?.maintenance_mode_enabled && !user?.isAdmin) return <Navigate to="/maintenance" replace />;
  return <>{children}</>;
}
