import { useState } from 'react';
import { registerSchema } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { useSchemaForm } from '../../lib/use-schema-form';
import { postRegister } from './api/session';
import { PasswordMeter } from './password-meter';

const emptyForm = { username: '', email: '', password: '', firstName: '', lastName: '', phone: '', address: '' };
type RegisterFields = typeof emptyForm;

/** Spec 3 and 5: the registration payload (city, postalCode and region sent empty) and its rules. */
export function RegisterForm({ onRegistered }: { onRegistered: (email: string) => void }) {
  const [form, setForm] = useState<RegisterFields>(emptyForm);
  const { errors, busy, handleSubmit } = useSchemaForm(registerSchema, {
    async send(data) {
      await postRegister(data);
      toast({ title: 'Registration Successful', description: 'Your account has been created. You can now log in.' });
      onRegistered(data.email);
    },
    onError(error) {
      const message = error instanceof ApiError ? error.body?.message : undefined;
      toast({ title: 'Registration Failed', description: message ?? 'Failed to create account. Please try again.', variant: 'destructive' });
    },
  });
  const field = (name: keyof RegisterFields) => ({
    value: form[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [name]: e.target.value })),
    error: errors[name],
  });

  return (
    <form onSubmit={handleSubmit({ ...form, city: '', postalCode: '', region: '' })} noValidate className="grid gap-4">
      <TextField label="Username" autoComplete="username" autoFocus {...field('username')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
        <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
      <TextField label="Phone" type="tel" autoComplete="tel" placeholder="021 123 4567" {...field('phone')} />
      <TextField label="Home address" autoComplete="street-address" {...field('address')} />
      <TextField label="Password" type="password" autoComplete="new-password" {...field('password')} />
      <PasswordMeter password={form.password} />
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
