import { useState } from 'react';
import type { User } from '../../../contracts/user';
import { ForgotPasswordForm } from './forgot-password-form';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

export type AuthMode = 'login' | 'register' | 'forgot';

/** Spec 2: the three modes' titles and texts, byte for byte. */
const headings: Record<AuthMode, { title: string; text: string }> = {
  login: { title: 'Sign In', text: 'Welcome back! Please enter your details.' },
  register: { title: 'Create Account', text: 'Join Mango Shop for exclusive offers, early access to each new season and faster checkout.' },
  forgot: { title: 'Forgot Password', text: "We'll send you a link to reset your password" },
};

const linkClass = 'font-semibold text-mango-700 underline-offset-2 hover:underline';

/**
 * The sign-in, registration and forgot-password modes shared by the /auth page and the auth dialog.
 * Spec 4: registration and a sent reset link both return to sign-in; each mode focuses its first field.
 */
export function AuthPanel({
  initialMode = 'login',
  onSignedIn,
  renderTitle = (title) => <h1 className="text-3xl font-semibold">{title}</h1>,
}: {
  initialMode?: AuthMode;
  onSignedIn?: (user: User) => void;
  renderTitle?: (title: string, text: string) => React.ReactNode;
}) {
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const [registeredEmail, setRegisteredEmail] = useState('');
  const heading = headings[mode];
  return (
    <div className="grid gap-6">
      <div className="grid gap-2 text-center">
        {renderTitle(heading.title, heading.text)}
        <p className="text-ink-500">{heading.text}</p>
      </div>
      {mode === 'login' && (
        <LoginForm key="login" onSignedIn={onSignedIn} initialEmail={registeredEmail}>
          <button type="button" className={`justify-self-end text-sm ${linkClass}`} onClick={() => setMode('forgot')}>
            Forgot password?
          </button>
        </LoginForm>
      )}
      {mode === 'register' && <RegisterForm
          key="register"
          onRegistered={(email) => {
            setRegisteredEmail(email);
            setMode('login');
          }}
        />}
      {mode === 'forgot' && <ForgotPasswordForm key="forgot" onSent={() => setMode('login')} />}
      <p className="text-center text-sm text-ink-500">
        {mode === 'login' && (
          <button type="button" className={linkClass} onClick={() => setMode('register')}>
            Create an account
          </button>
        )}
        {mode === 'register' && (
          <button type="button" className={linkClass} onClick={() => setMode('login')}>
            Sign in instead
          </button>
        )}
        {mode === 'forgot' && (
          <button type="button" className={linkClass} onClick={() => setMode('login')}>
            Back to login
          </button>
        )}
      </p>
    </div>
  );
}
