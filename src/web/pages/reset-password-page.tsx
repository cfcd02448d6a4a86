import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { passwordField } from '../../contracts/user';
import { Button } from '../components/ui/button';
import { TextField } from '../components/ui/text-field';
import { toast } from '../components/ui/toast';
import { postResetPassword } from '../features/auth/api/password-reset';
import { openAuthDialog } from '../features/auth/auth-dialog';
import { PasswordMeter } from '../features/auth/password-meter';
import { forgetResetToken, resetToken } from '../features/auth/reset-token';
import { ApiError } from '../lib/api-client';

/** ARCHITECTURE difference 6: the e-mailed, single-use token is redeemed here. */
export default function ResetPasswordPage() {
  // The token was taken out of the address at start-up, before analytics could read it.
  const [token] = useState(resetToken);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'invalid'>(token ? 'idle' : 'invalid');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = passwordField.safeParse(password);
    const next = {
      password: checked.success ? undefined : checked.error.issues[0]?.message,
      confirm: password === confirm ? undefined : 'Passwords do not match',
    };
    setErrors(next);
    if (next.password || next.confirm) return;
    setState('busy');
    try {
      await postResetPassword(token, password);
      forgetResetToken();
      setState('done');
      toast({ title: 'Password Changed', description: 'You can now sign in with your new password.' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        forgetResetToken();
        return setState('invalid');
      }
      setState('idle');
      toast({ title: 'Password Not Changed', description: 'Something went wrong. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <section className="mx-auto grid max-w-md gap-6 rounded-2xl bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-center text-3xl font-semibold">Reset Password</h1>
      {state === 'invalid' && (
        <div className="grid gap-4 text-center">
          <p className="text-ink-500">This reset link is invalid or has expired. Please ask for a new one.</p>
          <Button onClick={() => openAuthDialog('forgot')}>Send a new link</Button>
        </div>
      )}
      {state === 'done' && (
        <div className="grid gap-4 text-center">
          <p className="text-ink-500">Your password has been changed.</p>
          <Button onClick={() => openAuthDialog('login')}>Sign In</Button>
          <Link to="/shop" className="font-semibold text-mango-700 hover:underline">Browse our mangoes</Link>
        </div>
      )}
      {(state === 'idle' || state === 'busy') && (
        <form onSubmit={submit} noValidate className="grid gap-4">
          <p className="text-center text-ink-500">Choose a new password for your account.</p>
          <TextField label="New password" type="password" autoComplete="new-password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
          <PasswordMeter password={password} />
          <TextField label="Confirm new password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={errors.confirm} />
          <Button type="submit" disabled={state === 'busy'}>
            {state === 'busy' ? 'Saving...' : 'Save new password'}
          </Button>
        </form>
      )}
    </section>
  );
}
