import { originSentence } from '../../../contracts/origin-text';
import type { Product } from '../../../contracts/product';

/** Where the boxes offered were grown and how they were treated, as the law asks every offer to say. */
export function OriginLine({ product, className = 'text-sm' }: { product: Pick<Product, 'origin' | 'treatment'>; className?: string }) {
  return (
    <p className={className} data-testid="origin">
      {originSentence(product.origin.label, product.treatment.label)}
    </p>
  );
}
