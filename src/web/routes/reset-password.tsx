import type { MetaArgs } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { pageMeta } from '../lib/page-meta';
import ResetPasswordPage from '../pages/reset-password-page';

export const meta = (args: MetaArgs) => pageMeta(args, { name: 'Reset Password', noindex: true });

// Drawn in the browser only: the e-mailed token is taken from the address there (reset-token.ts)
// and kept for this tab; the server's copy of the page would not know it.
export async function clientLoader() {
  return null;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <Spinner />;
}

export default ResetPasswordPage;
