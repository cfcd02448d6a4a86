import { CalendarCheck } from 'lucide-react';
import { nzToday } from '../../../contracts/dates';
import type { Product } from '../../../contracts/product';
import { readyToEatLine } from '../../../contracts/ripeness';
import { useRenderTime } from '../../lib/render-time';

/**
 * When boxes sent now will be ready to eat, from the batch the next order would be packed from:
 * counted from the day the page was drawn, on the server and again when it hydrates.
 */
export function ReadyToEat({ product }: { product: Product }) {
  const line = readyToEatLine(product, nzToday(useRenderTime()));
  if (!line) return null;
  return (
    <p className="flex items-start gap-2 text-sm">
      <CalendarCheck className="mt-0.5 size-4 shrink-0 text-leaf-700" aria-hidden="true" />
      <span>
        <span className="font-semibold">{line}</span> <span className="text-ink-500">(boxes sent this week; picked firm, they ripen in your fruit bowl)</span>
      </span>
    </p>
  );
}
