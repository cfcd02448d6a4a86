import { OriginLine } from './origin-line';
import { Link } from 'react-router';
import type { Product } from '../../../contracts/product';
import { shopRules } from '../../../contracts/shop-rules';
import { Dialog, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { formatDate, formatPrice } from '../../lib/format';
import { ProductBadges } from './product-badges';
import { ProductRating } from './product-rating';
import { PurchasePanel } from './purchase-panel';
import { StockLabel } from './stock-label';
import { ResponsiveImage } from '../../components/ui/responsive-image';

/** Spec 2's Quick View dialog: its code loads when a shopper first opens one (quick-view.tsx). */
export default function QuickViewDialog({ product, open, setOpen }: { product: Product; open: boolean; setOpen(open: boolean): void }) {
  return (
    <Dialog open={open} onOpenChange={setOpen} title={product.name} titled wide focusDialog>
      <div className="grid gap-6 sm:grid-cols-2">
        <ResponsiveImage src={product.imageUrl} image={product.image} alt={product.name} sizes="(min-width: 640px) 360px, calc(100vw - 80px)" box={{ width: 800, height: 600 }} loading="eager" className="aspect-[4/3] w-full rounded-xl object-cover" />
        <div className="grid content-start gap-3">
          <ProductBadges product={product} />
          <p className="text-sm text-ink-500">{product.category}</p>
          <DialogTitle className="font-serif text-2xl font-semibold">{product.name}</DialogTitle>
          <ProductRating rating={product.rating} />
          <p className="text-2xl font-semibold tabular-nums">{formatPrice(product.price)}</p>
          <StockLabel product={product} />
          <DialogDescription className="text-sm leading-relaxed">{product.description}</DialogDescription>
          <p className="text-sm text-ink-500">{product.boxInfo || shopRules.defaultBoxInfo}</p>
          <OriginLine product={product} className="text-sm text-ink-500" />
          {product.isPreOrder && product.expectedAvailabilityDate && (
            <p className="text-sm">Expected availability: {formatDate(product.expectedAvailabilityDate)}</p>
          )}
          <PurchasePanel product={product} beforeSignIn={() => setOpen(false)} />
          <Link to={`/product/${product.id}`} className="text-sm font-semibold text-mango-700 hover:underline">
            View full details
          </Link>
        </div>
      </div>
    </Dialog>
  );
}
