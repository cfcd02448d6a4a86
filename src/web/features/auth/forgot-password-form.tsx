import { useState } from 'react';
import { forgotPasswordSchema } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useSchemaForm } from '../../lib/use-schema-form';
import { postForgotPassword } from './api/password-reset';

/** Spec 8, the dialog's reading: success and failure toasts; success goes back to sign-in. */
export function ForgotPasswordForm({ onSent }: { onSent: () => void }) {
  const [email, setEmail] = useState('');
  const { errors, busy, handleSubmit } = useSchemaForm(forgotPasswordSchema, {
    async send(data) {
      await postForgotPassword(data.email);
      toast({ title: 'Password Reset Email Sent', description: "If your email exists in our system, you'll receive a password reset link shortly." });
      onSent();
    },
    onError() {
      toast({
        title: 'Email Processing Error',
        description: 'There was a problem processing your email. Please check your email and try again.',
        variant: 'destructive',
      });
    },
  });

  return (
    <form onSubmit={handleSubmit({ email })} noValidate className="grid gap-4">
      <TextField label="Email" type="email" autoComplete="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </form>
  );
}
