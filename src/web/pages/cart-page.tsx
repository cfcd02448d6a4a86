import { Link } from 'react-router';
import { Button } from '../components/ui/button';
import { Spinner } from '../components/ui/spinner';
import { useAuth } from '../features/auth/auth-provider';
import { openAuthDialog } from '../features/auth/auth-dialog';
import { CartLines } from '../features/cart/cart-lines';
import { useCartChanges } from '../features/cart/cart-changes';
import { useCart } from '../features/cart/cart-provider';
import { formatPrice } from '../lib/format';

/** The cart as a page: the drawer's lines and totals, with the way on to checkout. */
export default function CartPage() {
  const { user } = useAuth();
  const { cart, loading, subtotal } = useCart();
  const { clear } = useCartChanges();
  const items = cart?.items ?? [];
  return (
    <section className="mx-auto grid max-w-3xl gap-6">
      <h1 className="text-4xl font-semibold">Your Cart</h1>
      {!user ? (
        <div className="grid justify-items-center gap-3 rounded-2xl bg-white p-8 text-center">
          <p className="text-ink-500">Sign in to see the mangoes in your cart.</p>
          <Button onClick={() => openAuthDialog('login')}>Sign In</Button>
        </div>
      ) : loading ? (
        <Spinner />
      ) : items.length === 0 ? (
        <div className="grid justify-items-center gap-3 rounded-2xl bg-white p-8 text-center">
          <p className="text-xl font-semibold">Your cart is empty</p>
          <p className="text-ink-500">Looks like you haven't added any mangoes to your cart yet.</p>
          <Link to="/shop" className="rounded-full bg-mango-500 px-6 py-2.5 font-semibold text-ink-900 hover:bg-mango-600">Shop Now</Link>
        </div>
      ) : (
        <div className="grid gap-4 rounded-2xl bg-white p-6">
          <CartLines lines={items} />
          <div className="flex justify-between border-t border-mango-50 pt-4 text-lg font-semibold">
            <span>Subtotal</span>
            <span className="tabular-nums">{formatPrice(subtotal)}</span>
          </div>
          <p className="text-right text-sm text-ink-500">Shipping calculated at checkout</p>
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="outline" onClick={() => void clear()}>Clear cart</Button>
            <Link to="/checkout" className="rounded-full bg-mango-500 px-6 py-2.5 font-semibold text-ink-900 hover:bg-mango-600">Checkout</Link>
          </div>
        </div>
      )}
    </section>
  );
}
