import { formatOpening } from '../../../contracts/availability';
import type { Product } from '../../../contracts/product';
import { Dialog, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { NotifyMe } from './notify-me';

/** "Notify me" over the page, for places without room for the form (the seasonal chart's rows). */
export default function NotifyDialog({ name, product, open, onOpenChange }: { name: string; product: Product; open: boolean; onOpenChange: (open: boolean) => void }) {
  // A pre-order with room that cannot be had yet waits for its opening.
  const opening = product.isPreOrder && !product.preOrdersFull;
  const title = opening ? `Notify me when pre-orders for ${name} open` : `Notify me when ${name} is back`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} titled>
      <div className="grid gap-4">
        <header className="pr-8">
          <DialogTitle className="font-serif text-2xl font-semibold">{title}</DialogTitle>
          <DialogDescription className="mt-1 text-ink-500">
            {opening && product.preOrdersOpenAt
              ? `Pre-orders for ${product.name} open ${formatOpening(product.preOrdersOpenAt)}.`
              : `${product.name} ${product.isPreOrder ? 'is fully pre-ordered' : 'is sold out'} for now.`}
          </DialogDescription>
        </header>
        <NotifyMe product={product} startOpen waitsFor={opening ? 'opening' : 'back'} />
      </div>
    </Dialog>
  );
}
