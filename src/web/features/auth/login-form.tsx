import { useState } from 'react';
import type { User } from '../../../contracts/user';
import { loginSchema } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { useSchemaForm } from '../../lib/use-schema-form';
import { postLogin } from './api/session';
import { useAuth } from './auth-provider';

/** Spec 2 and 8: the Sign In form; success and failure are told by toasts. */
export function LoginForm({ onSignedIn, initialEmail = '', children }: { onSignedIn?: (user: User) => void; initialEmail?: string; children?: React.ReactNode }) {
  const { signedIn } = useAuth();
  // Just registered: the e-mail is filled in and the password is what is left to type.
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const { errors, busy, handleSubmit } = useSchemaForm(loginSchema, {
    async send(credentials) {
      const user = await postLogin(credentials);
      signedIn(user);
      toast({ title: 'Welcome back!', description: `Successfully logged in as ${user.username}` });
      onSignedIn?.(user);
    },
    onError(error) {
      const tooMany = error instanceof ApiError && error.status === 429;
      toast({
        title: 'Login Failed',
        description: tooMany ? (error.body?.message ?? 'Please try again later.') : 'Invalid email or password',
        variant: 'destructive',
      });
    },
  });

  return (
    <form onSubmit={handleSubmit({ email, password })} noValidate className="grid gap-4">
      <TextField label="Email" type="email" autoComplete="email" autoFocus={!initialEmail} value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
      <TextField label="Password" type="password" autoComplete="current-password" autoFocus={Boolean(initialEmail)} value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
      {children}
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
