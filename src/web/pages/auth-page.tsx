import { useNavigate, useSearchParams } from 'react-router';
import { AuthPanel } from '../features/auth/auth-panel';
import { ownPath } from '../lib/own-path';

/** Spec 2: /auth signs in, or opens sign-up with ?signup=true; ?redirect= brings the shopper back. */
export default function AuthPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signup = params.get('signup') === 'true';
  const redirect = params.get('redirect');
  const target = ownPath(redirect) ?? '/';
  return (
    <section className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-sm sm:p-8">
      <AuthPanel key={signup ? 'register' : 'login'} initialMode={signup ? 'register' : 'login'} onSignedIn={() => navigate(target)} />
    </section>
  );
}
