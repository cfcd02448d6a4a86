import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useState, useSyncExternalStore } from 'react';
import { Link, useNavigate } from 'react-router';
import { preOrderSignInSchema } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { Dialog, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useSchemaForm } from '../../lib/use-schema-form';
import { postLogin } from '../auth/api/session';
import { useAuth } from '../auth/auth-provider';

/** Spec 3: the sign-in modal's state beyond isOpen. */
interface PreOrderChoice {
  productId: number;
  productName: string;
}

let choice: PreOrderChoice | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** Spec 4: a visitor starting a pre-order opens the modal with the product's id and name. */
export function openPreOrderSignIn(next: PreOrderChoice): void {
  choice = next;
  emit();
}

function closePreOrderSignIn(): void {
  choice = null;
  emit();
}

function usePreOrderChoice() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => choice,
    () => null,
  );
}

function PreOrderSignInForm({ product }: { product: PreOrderChoice }) {
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
      <header className="pr-8">
        <DialogTitle className="font-serif text-2xl font-semibold">Almost There!</DialogTitle>
        <DialogDescription className="mt-1 text-ink-500">Sign In to Complete Your {product.productName} Pre-Order!</DialogDescription>
      </header>
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

/** Spec 2: 'Almost There!' appears over any page when a visitor tries to complete a pre-order. */
export function PreOrderSignIn() {
  const product = usePreOrderChoice();
  return (
    <Dialog open={product !== null} onOpenChange={(open) => !open && closePreOrderSignIn()} title="Almost There!" titled>
      {product && <PreOrderSignInForm key={product.productId} product={product} />}
    </Dialog>
  );
}
