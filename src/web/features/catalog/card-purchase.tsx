import { Bell, Check, ShoppingCart } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Product } from '../../../contracts/product';
import { Button } from '../../components/ui/button';
import { QuantityStepper } from '../../components/ui/quantity-stepper';
import { useAuth } from '../auth/auth-provider';
import { useCart } from '../cart/cart-provider';
import { OpeningNotice, useOpening } from '../pre-order/opening';
import { openPreOrderSignIn } from '../pre-order/pre-order-store';
import { useSuccessReset } from './use-success-reset';

type Step = 'closed' | 'choosing' | 'adding' | 'added';

/**
 * Spec 4's card add flow: the button opens a quantity selector, its add action adds, a 2-second
 * success state follows, then the card resets (selector closed, quantity 1). A pre-order goes to
 * the product page for a signed-in shopper and opens the pre-order sign-in modal for a visitor.
 */
export function CardPurchase({ product }: { product: Product }) {
  const { user } = useAuth();
  const { addItem } = useCart();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('closed');
  const [quantity, setQuantity] = useState(1);
  const opening = useOpening(product);

  useSuccessReset(step === 'added', () => {
    setStep('closed');
    setQuantity(1);
  });

  // Pre-orders that open later, full pre-orders and sold-out boxes: the product page offers "Notify me".
  if (opening.opensLater) {
    return (
      <div className="grid gap-2">
        <OpeningNotice product={product} left={opening.left} compact />
        <Button onClick={() => void navigate(`/product/${product.id}`)} variant="outline" className="w-full" aria-label={`Pre-orders open later: notify me about ${product.name}`}>
          <Bell className="size-4" aria-hidden="true" /> Notify me
        </Button>
      </div>
    );
  }
  if (product.isPreOrder && product.preOrdersFull) {
    return (
      <Button onClick={() => void navigate(`/product/${product.id}`)} variant="outline" className="w-full" aria-label={`Pre-Orders Full: notify me about ${product.name}`}>
        <Bell className="size-4" aria-hidden="true" /> Notify me
      </Button>
    );
  }
  if (product.isPreOrder) {
    const preOrder = () =>
      user ? void navigate(`/product/${product.id}`) : openPreOrderSignIn({ productId: product.id, productName: product.name });
    return (
      <Button onClick={preOrder} className="w-full" aria-label={`Pre-Order Now: ${product.name}`}>
        Pre-Order Now
      </Button>
    );
  }
  if (product.stock === 0) {
    return (
      <Button disabled className="w-full" aria-label={`Out of Stock: ${product.name}`}>
        Out of Stock
      </Button>
    );
  }
  if (step === 'closed') {
    return (
      <Button onClick={() => setStep('choosing')} className="w-full" aria-label={`Add to Cart: ${product.name}`}>
        <ShoppingCart className="size-4" aria-hidden="true" /> Add to Cart
      </Button>
    );
  }

  async function add() {
    setStep('adding');
    setStep((await addItem(product.id, quantity)) ? 'added' : 'choosing');
  }

  return (
    <div className="flex items-center justify-between gap-2">
      <QuantityStepper value={quantity} max={product.stock} onChange={setQuantity} label={`Quantity of ${product.name}`} disabled={step !== 'choosing'} />
      <Button onClick={() => void add()} disabled={step !== 'choosing'} className="min-w-24" aria-label={step === 'choosing' ? `Add ${quantity} ${product.name} to the cart` : undefined}>
        {step === 'added' ? (
          <>
            <Check className="size-4" aria-hidden="true" /> Added!
          </>
        ) : step === 'adding' ? (
          'Adding...'
        ) : (
          'Add'
        )}
      </Button>
    </div>
  );
}
