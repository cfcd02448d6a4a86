import * as DialogPrimitive from '@radix-ui/react-dialog';
import { ShoppingBag, X } from 'lucide-react';
import { Link } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { formatPrice } from '../../lib/format';
import { CartLines } from './cart-lines';
import { useCart } from './cart-provider';

/** Spec 2: slides in from the right; Escape, backdrop or close button close it; scroll is locked. */
export default function CartDrawerPanel() {
  const { cart, loading, subtotal, drawerOpen, setDrawerOpen } = useCart();
  const close = () => setDrawerOpen(false);
  const items = cart?.items ?? [];
  return (
    <DialogPrimitive.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-ink-900/50" />
        <DialogPrimitive.Content className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col bg-cream-50 shadow-xl data-[state=open]:animate-[slide-in_200ms_ease-out]">
          <div className="flex items-center justify-between border-b border-mango-50 px-5 py-4">
            <DialogPrimitive.Title className="font-serif text-2xl font-semibold">Your Cart</DialogPrimitive.Title>
            <DialogPrimitive.Description className="sr-only">The mangoes in your cart</DialogPrimitive.Description>
            <DialogPrimitive.Close aria-label="Close cart" className="rounded-full p-2 hover:bg-mango-50">
              <X className="size-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </div>
          {loading ? (
            <Spinner />
          ) : items.length === 0 ? (
            <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center">
              <ShoppingBag className="size-12 text-mango-500" aria-hidden="true" />
              <p className="text-xl font-semibold">Your cart is empty</p>
              <p className="text-ink-500">Looks like you haven't added any mangoes to your cart yet.</p>
              <Link to="/shop" onClick={close} className="mt-2 rounded-full bg-mango-500 px-6 py-2.5 font-semibold text-ink-900 hover:bg-mango-600">
                Shop Now
              </Link>
            </div>
          ) : (
            <>
              <div className="flex-1 overflow-y-auto px-5">
                <CartLines lines={items} onNavigate={close} />
              </div>
              <div className="grid gap-3 border-t border-mango-50 px-5 py-4">
                <div className="flex justify-between font-semibold">
                  <span>Subtotal</span>
                  <span className="tabular-nums">{formatPrice(subtotal)}</span>
                </div>
                <div className="flex justify-between text-sm text-ink-500">
                  <span>Shipping</span>
                  <span>Calculated at checkout</span>
                </div>
                <Link to="/checkout" onClick={close} className="rounded-full bg-mango-500 py-3 text-center font-semibold text-ink-900 hover:bg-mango-600">
                  Checkout
                </Link>
                <button type="button" onClick={close} className="rounded-full border border-ink-900 py-3 font-semibold hover:bg-mango-50">
                  Continue Shopping
                </button>
              </div>
            </>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
