import { useNavigate, useSearchParams } from 'react-router';
import type { User } from '../../contracts/user';
import { toast } from '../components/ui/toast';
import { AuthPanel } from '../features/auth/auth-panel';
import { cartQueryKey, postCartItem } from '../features/cart/cart-api';
import { ApiError } from '../lib/api-client';
import { ownPath } from '../lib/own-path';
import { useQueryClient } from '../lib/query';

/** `add=12x2`: the item a visitor tried to add before signing in (product 12, 2 boxes). */
function itemToAdd(value: string | null): { productId: number; quantity: number } | null {
  const match = /^(\d{1,9})x(\d{1,3})$/.exec(value ?? '');
  if (!match) return null;
  const [productId, quantity] = [Number(match[1]), Number(match[2])];
  return productId > 0 && quantity > 0 ? { productId, quantity } : null;
}

/**
 * Spec 2: /auth signs in, or opens sign-up with ?signup=true; ?redirect= brings the shopper back,
 * and ?add= puts in their cart the item they tried to add before signing in.
 */
export default function AuthPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signup = params.get('signup') === 'true';
  const target = ownPath(params.get('redirect')) ?? '/';
  const pending = itemToAdd(params.get('add'));

  const signedIn = async (user: User) => {
    if (pending) {
      try {
        queryClient.setQueryData(cartQueryKey(user.id), await postCartItem(user.id, pending.productId, pending.quantity));
        // A read of the cart sent by the sign-in itself may answer after this: read it again.
        void queryClient.invalidateQueries({ queryKey: cartQueryKey(user.id) });
        toast({ title: 'Added to Cart', description: `Welcome back, ${user.username}.` });
      } catch (error) {
        const message = error instanceof ApiError ? error.body?.message : undefined;
        toast({ title: 'Failed to add item to cart', description: message ?? 'Please try adding it again.', variant: 'destructive' });
      }
    }
    void navigate(target);
  };

  return (
    <section className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-sm sm:p-8">
      <AuthPanel key={signup ? 'register' : 'login'} initialMode={signup ? 'register' : 'login'} onSignedIn={(user) => void signedIn(user)} />
    </section>
  );
}
