import { Store } from 'lucide-react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/auth-provider';
import { useLogOut } from '../../frame/use-log-out';

/** The admin's own top bar: where staff are, the way back to the shop, who is signed in. */
export function AdminBar() {
  const { user } = useAuth();
  const logOut = useLogOut();
  return (
    <header className="border-b border-ink-900/10 bg-white">
      <div className="mx-auto flex max-w-[1400px] items-center justify-between gap-3 px-4 py-3">
        <Link to="/admin" className="flex shrink-0 items-center gap-2" aria-label="Mango Shop admin dashboard">
          <img src="/images/logo.svg" alt="Mango Shop" width={128} height={30} className="w-24 sm:w-32" />
          <span className="rounded-md bg-ink-900 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-white">Admin</span>
        </Link>
        <div className="flex items-center gap-2 text-sm font-medium sm:gap-3">
          <Link to="/" className="inline-flex items-center gap-1.5 whitespace-nowrap hover:text-mango-700">
            <Store className="hidden size-4 sm:block" aria-hidden="true" />
            View shop
          </Link>
          {user && (
            <>
              <span className="hidden text-ink-500 sm:inline">Signed in as {user.username}</span>
              <button type="button" onClick={() => void logOut()} className="whitespace-nowrap rounded-full border border-ink-900 px-3 py-1.5 hover:bg-mango-50 sm:px-4">
                Logout
              </button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
