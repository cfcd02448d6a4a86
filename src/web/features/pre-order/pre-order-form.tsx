import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { preOrderSignInSchema } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useSchemaForm } from '../../lib/use-schema-form';
import { postLogin } from '../auth/api/session';
import { useAuth } from '../auth/auth-provider';
import { closePreOrderSignIn, type PreOrderChoice } from './pre-order-store';

/** The modal's form, loaded when the modal first opens (it brings the form validation code). */
export default function PreOrderSignInForm({ product }: { product: PreOrderChoice }) {
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, handleSubmit, revalidate } = useSchemaForm(preOrderSignInSchema, {
    async send(credentials) {
      const user = await postLogin(credentials);
      signedIn(user);
      toast({ title: 'Welcome back!', description: "You've successfully signed in." });
      closePreOrderSignIn();
      // Spec 2: to the chosen product, otherwise to the shop.
      void navigate(product.productId ? `/product/${product.productId}` : '/shop');
    },
    // Spec 8: in this modal a failed sign-in is only logged.
    onError: (error) => console.warn('Pre-order sign-in failed', error),
    showServerFieldErrors: false,
  });

  return (
    <div className="grid gap-5">
      <form onSubmit={handleSubmit({ email, password })} noValidate className="grid gap-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            revalidate({ email: e.target.value, password });
          }}
          error={errors.email}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            revalidate({ email, password: e.target.value });
          }}
          error={errors.password}
        />
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? 'Signing In...' : 'Continue'}
        </Button>
      </form>
      <p className="text-center text-sm text-ink-500">
        New to Mango Shop?{' '}
        <DialogPrimitive.Close asChild>
          <Link to="/auth?signup=true" className="font-semibold text-mango-700 underline-offset-2 hover:underline">
            Create a free account
          </Link>
        </DialogPrimitive.Close>
      </p>
    </div>
  );
}
