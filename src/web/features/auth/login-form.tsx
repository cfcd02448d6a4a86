import { type FormEvent, useState } from 'react';
import type { User } from '../../../contracts/user';
import { loginSchema } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../lib/form-errors';
import { postLogin } from './api/session';
import { useAuth } from './auth-provider';

/** Spec 2 and 8: the Sign In form; success and failure are told by toasts. */
export function LoginForm({ onSignedIn, children }: { onSignedIn?: (user: User) => void; children?: React.ReactNode }) {
  const { signedIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      const user = await postLogin(parsed.data);
      signedIn(user);
      toast({ title: 'Welcome back!', description: `Successfully logged in as ${user.username}` });
      onSignedIn?.(user);
    } catch (error) {
      const tooMany = error instanceof ApiError && error.status === 429;
      toast({
        title: 'Login Failed',
        description: tooMany ? (error.body?.message ?? 'Please try again later.') : 'Invalid email or password',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <TextField label="Email" type="email" autoComplete="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
      <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
      {children}
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
