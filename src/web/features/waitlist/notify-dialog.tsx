import type { Product } from '../../../contracts/product';
import { Dialog, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { NotifyMe } from './notify-me';

/** "Notify me" over the page, for places without room for the form (the seasonal chart's rows). */
export default function NotifyDialog({ name, product, open, onOpenChange }: { name: string; product: Product; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Notify me when ${name} is back`} titled>
      <div className="grid gap-4">
        <header className="pr-8">
          <DialogTitle className="font-serif text-2xl font-semibold">Notify me when {name} is back</DialogTitle>
          <DialogDescription className="mt-1 text-ink-500">
            {product.name} {product.isPreOrder ? (product.preOrdersFull ? 'is fully pre-ordered' : 'opens for pre-orders soon') : 'is sold out'} for now.
          </DialogDescription>
        </header>
        <NotifyMe product={product} startOpen />
      </div>
    </Dialog>
  );
}
