import { originSentence } from '../../../contracts/origin-text';
import { Minus, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { CartLine } from '../../../contracts/cart';
import { ResponsiveImage } from '../../components/ui/responsive-image';
import { shopRules } from '../../../contracts/shop-rules';
import { formatDate, formatPrice } from '../../lib/format';
import { useCartChanges } from './cart-changes';
import { useCart } from './cart-provider';

/** Spec 2: image, name, 'Single Item' or 'Qty: n', minus and plus, remove, line total. */
function CartLineRow({ line, onNavigate }: { line: CartLine; onNavigate?: () => void }) {
  const { pendingQuantities } = useCart();
  const { updateItem, removeItem } = useCartChanges();
  const [leaving, setLeaving] = useState(false);
  // A press while an update is on its way counts from the quantity already pressed for.
  const quantity = pendingQuantities.get(line.id) ?? line.quantity;
  const max = line.product.isPreOrder ? shopRules.maxPreOrderQuantityPerLine : line.product.stock;
  // Spec 4: a plus or minus applies only when the new quantity is above 0 and not above stock.
  const change = (next: number) => {
    if (next > 0 && next <= max) void updateItem(line.id, next);
  };
  const remove = () => {
    setLeaving(true);
    setTimeout(() => void removeItem(line.id), 200);
  };
  const stepButton = 'flex size-8 items-center justify-center rounded-full border border-ink-500/30 hover:bg-mango-50 disabled:opacity-40';
  return (
    // A line on its way out takes no more presses.
    <li className={`flex gap-3 py-4 transition-opacity duration-200 ${leaving ? 'pointer-events-none opacity-0' : 'opacity-100'}`} inert={leaving}>
      <ResponsiveImage src={line.product.imageUrl} image={line.product.image} alt="" sizes="96px" box={{ width: 96, height: 72 }} loading="eager" className="h-[72px] w-24 shrink-0 rounded-lg object-cover" />
      <div className="grid flex-1 gap-1">
        <Link to={`/product/${line.productId}`} onClick={onNavigate} className="font-semibold hover:text-mango-700">
          {line.product.name}
        </Link>
        <p className="text-sm text-ink-500">{quantity === 1 ? 'Single Item' : `Qty: ${quantity}`}</p>
        {line.product.origin && (
          <p className="text-xs text-ink-500" data-testid="origin">
            {originSentence(line.product.origin, line.product.treatment)}
          </p>
        )}
        {line.product.isPreOrder && (
          <p className="w-fit rounded-full bg-mango-50 px-2 py-0.5 text-xs font-semibold text-mango-700">
            Pre-order{line.product.expectedAvailabilityDate ? `, expected ${formatDate(line.product.expectedAvailabilityDate)}` : ''}
          </p>
        )}
        <div className="flex items-center gap-2">
          <button type="button" className={stepButton} aria-label={`One less ${line.product.name}`} disabled={quantity <= 1} onClick={() => change(quantity - 1)}>
            <Minus className="size-4" aria-hidden="true" />
          </button>
          <span className="w-6 text-center tabular-nums" aria-live="polite">{quantity}</span>
          <button type="button" className={stepButton} aria-label={`One more ${line.product.name}`} disabled={quantity >= max} onClick={() => change(quantity + 1)}>
            <Plus className="size-4" aria-hidden="true" />
          </button>
          <button type="button" className="ml-auto rounded-full p-2 text-ink-500 hover:bg-mango-50 hover:text-danger-600" aria-label={`Remove ${line.product.name}`} onClick={remove}>
            <Trash2 className="size-4" aria-hidden="true" />
          </button>
        </div>
      </div>
      <p className="font-semibold tabular-nums">{formatPrice(line.product.price * quantity)}</p>
    </li>
  );
}

export function CartLines({ lines, onNavigate }: { lines: CartLine[]; onNavigate?: () => void }) {
  return (
    <ul className="divide-y divide-mango-50">
      {lines.map((line) => (
        <CartLineRow key={line.id} line={line} onNavigate={onNavigate} />
      ))}
    </ul>
  );
}
