import { shopRules } from '../../contracts/shop-rules';
import { useSettings } from '../features/frame/use-settings';

export default function MaintenancePage() {
  const settings = useSettings();
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-4xl font-semibold">We'll be right back</h1>
      <p className="mt-4 text-lg text-ink-500">{settings.data?.maintenance.message || shopRules.maintenanceDefaultMessage}</p>
    </section>
  );
}
