import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { openAuthDialog } from '../../auth/auth-dialog';
import { useAuth } from '../../auth/auth-provider';

/** Issue 5: visitors are asked to sign in, customers told they are not authorised; the server enforces both. */
export function AdminGate({ children }: { children: ReactNode }) {
  const { user, checking } = useAuth();
  if (!user) {
    if (checking) return <Spinner />;
    return (
      <section className="mx-auto grid max-w-md justify-items-center gap-4 py-12 text-center">
        <h1 className="text-4xl font-semibold">Staff sign-in</h1>
        <p className="text-ink-500">The admin area is for Mango Shop staff. Please sign in with your staff account.</p>
        <Button onClick={() => openAuthDialog('login')}>Sign In</Button>
      </section>
    );
  }
  if (!user.isAdmin) {
    return (
      <section className="mx-auto grid max-w-md justify-items-center gap-4 py-12 text-center">
        <ShieldAlert className="size-12 text-danger-600" aria-hidden="true" />
        <h1 className="text-4xl font-semibold">Not authorised</h1>
        <p className="text-ink-500">Your account does not have access to the admin area.</p>
        <Link to="/" className="font-semibold text-mango-700 hover:underline">
          Back to the shop
        </Link>
      </section>
    );
  }
  return children;
}
