import type { MetaArgs } from 'react-router';
import type { adminSections } from '../../contracts/routes';
import { Spinner } from '../components/ui/spinner';
import { adminSectionTitles } from '../features/admin/shared/admin-layout';
import { pageMeta } from '../lib/page-meta';
import AdminPage from '../pages/admin-page';

export function meta(args: MetaArgs) {
  const section = args.params.section as (typeof adminSections)[number] | undefined;
  return pageMeta(args, { name: section && adminSectionTitles[section] ? `Admin: ${adminSectionTitles[section]}` : 'Admin Dashboard', noindex: true });
}

// The admin area stays drawn in the browser (it needs no search engine): with a clientLoader and
// no server loader, the server sends the spinner and the admin's code loads only for staff.
export async function clientLoader() {
  return null;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <Spinner />;
}

export default AdminPage;
