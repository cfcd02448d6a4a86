import { type ChangeEvent, useState } from 'react';
import { changePasswordSchema } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { useSchemaForm } from '../../lib/use-schema-form';
import { PasswordMeter } from '../auth/password-meter';
import { putPassword } from './account-api';

const empty = { currentPassword: '', newPassword: '' };

/** Changing the password needs the current one; other devices are signed out. */
export function PasswordForm() {
  const [form, setForm] = useState(empty);
  const { errors, busy, handleSubmit, revalidate } = useSchemaForm(changePasswordSchema, {
    async send(data) {
      const { message } = await putPassword(data);
      setForm(empty);
      toast({ title: 'Password changed', description: `${message} Other devices have been signed out.` });
    },
    onError(error) {
      toast({ title: 'Password not changed', description: error instanceof ApiError ? error.body?.message : 'Please try again.', variant: 'destructive' });
    },
  });
  const field = (name: keyof typeof empty) => ({
    value: form[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...form, [name]: event.target.value };
      setForm(next);
      revalidate(next);
    },
    error: errors[name],
  });
  return (
    <form onSubmit={handleSubmit(form)} noValidate className="grid gap-4">
      <TextField label="Current password" type="password" autoComplete="current-password" {...field('currentPassword')} />
      <TextField label="New password" type="password" autoComplete="new-password" {...field('newPassword')} />
      <PasswordMeter password={form.newPassword} />
      <Button type="submit" disabled={busy} className="justify-self-start">
        {busy ? 'Changing...' : 'Change password'}
      </Button>
    </form>
  );
}
