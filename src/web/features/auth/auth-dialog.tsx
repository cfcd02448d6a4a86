import { lazy, Suspense } from 'react';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { createExternalValue } from '../../lib/external-value';
import type { AuthMode } from './auth-panel';

// The forms and their validation load when the dialog first opens, not with every page.
const AuthPanel = lazy(() => import('./auth-panel').then((module) => ({ default: module.AuthPanel })));

const openMode = createExternalValue<AuthMode | null>(null);

/** Opens the auth dialog from anywhere (header, add to cart...). */
export function openAuthDialog(mode: AuthMode = 'login'): void {
  openMode.set(mode);
}

const closeAuthDialog = (): void => openMode.set(null);

/** Spec 2 and 4: the three-mode dialog; it resets on opening and closes on a successful sign-in. */
export function AuthDialog() {
  const mode = openMode.use();
  return (
    <Dialog open={mode !== null} onOpenChange={(open) => !open && closeAuthDialog()} title="Sign in or create an account">
      {mode && (
        <Suspense fallback={<Spinner compact />}>
          <AuthPanel
            key={mode}
            initialMode={mode}
            onSignedIn={closeAuthDialog}
            renderTitle={(title) => <h2 className="font-serif text-2xl font-semibold">{title}</h2>}
          />
        </Suspense>
      )}
    </Dialog>
  );
}
