import { type ReactNode, useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { PublicSettings } from '../../../contracts/settings';
import { Spinner } from '../../components/ui/spinner';
import { apiRequest } from '../../lib/api-client';
import { useAuth } from '../auth/auth-provider';

/** Spec 4: skipped on /maintenance, under /admin, with the local bypass flag or ?bypass=maintenance. */
function skipsCheck(pathname: string, search: string): boolean {
  return (
    pathname === '/maintenance' ||
    pathname.startsWith('/admin') ||
    localStorage.getItem('adminBypassMaintenance') === 'true' ||
    new URLSearchParams(search).get('bypass') === 'maintenance'
  );
}

/**
 * Spec 4's maintenance check: a spinner while the settings load (fetched directly, not cached),
 * then the page, or /maintenance for visitors and customers when maintenance is on. The server
 * refuses their writes anyway (ARCHITECTURE difference 5).
 */
export function MaintenanceGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [settings, setSettings] = useState<PublicSettings | null | 'failed'>(null);

  useEffect(() => {
    apiRequest<PublicSettings>('/api/settings')
      .then(setSettings)
      .catch((error: unknown) => {
        console.warn('Maintenance check failed; showing the page', error);
        setSettings('failed');
      });
  }, []);

  // Spec 4: on /admin with a bypass, the query string is cleared from the address.
  const bypassOnAdmin = location.pathname.startsWith('/admin') && new URLSearchParams(location.search).get('bypass') === 'maintenance';
  useEffect(() => {
    if (bypassOnAdmin) navigate(location.pathname, { replace: true });
  }, [bypassOnAdmin, location.pathname, navigate]);

  if (skipsCheck(location.pathname, location.search)) return <>{children}</>;
  if (settings === null) return <Spinner />;
  if (settings !== 'failed' && settings.maintenance_mode_enabled && !user?.isAdmin) return <Navigate to="/maintenance" replace />;
  return <>{children}</>;
}
