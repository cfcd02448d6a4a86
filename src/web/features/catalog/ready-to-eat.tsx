import { CalendarCheck } from 'lucide-react';
import { nzToday } from '../../../contracts/dates';
import type { Product } from '../../../contracts/product';
import { readyToEatLine } from '../../../contracts/ripeness';
import { useBrowserValue } from '../../lib/browser-value';
import { useRenderDay, useRenderTime } from '../../lib/render-time';

/**
 * When boxes sent now will be ready to eat, from the batch the next order would be packed from:
 * counted from the New Zealand day the page was drawn on while it hydrates, then from the shop's
 * day now, the server's render time moved on by the time this page has been open (a visit may
 * reach this product long after it began, and the device's own clock may be off).
 */
export function ReadyToEat({ product }: { product: Product }) {
  const renderedAt = useRenderTime();
  const today = useBrowserValue(() => nzToday(renderedAt + performance.now()), useRenderDay());
  const line = readyToEatLine(product, today);
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
