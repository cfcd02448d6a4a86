import { useQuery } from '@tanstack/react-query';
import type { PublicSettings } from '../../contracts/settings';
import { shopRules } from '../../contracts/shop-rules';
import { apiRequest } from '../lib/api-client';
import { usePageTitle } from '../lib/page-title';

export default function MaintenancePage() {
  usePageTitle('Maintenance');
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => apiRequest<PublicSettings>('/api/settings') });
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-4xl font-semibold">We'll be right back</h1>
      <p className="mt-4 text-lg text-ink-500">{settings.data?.maintenance.message || shopRules.maintenanceDefaultMessage}</p>
    </section>
  );
}
