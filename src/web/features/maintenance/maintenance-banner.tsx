import { useAuth } from '../auth/auth-provider';
import { useSettings } from '../frame/use-settings';

/** Spec 2: shown while maintenance is on; admins also read that others see the maintenance page. */
export function MaintenanceBanner() {
  const { user } = useAuth();
  const settings = useSettings();
  if (!settings.data?.maintenance_mode_enabled) return null;
  return (
    <div role="status" className="bg-blush-500 px-4 py-2 text-center text-sm font-medium text-ink-900">
      {settings.data.maintenance_message}
      {user?.isAdmin && <span className="block font-semibold">Admin note: regular users would see the maintenance page.</span>}
    </div>
  );
}
