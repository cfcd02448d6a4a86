import type { OrderLineView } from '../../../contracts/order';
import { formatDate, formatPrice } from '../../lib/format';

/** "2 x Alphonso Mangoes ... $129.98" for each line; pre-orders say when they ship. */
export function OrderLineList({ lines }: { lines: OrderLineView[] }) {
  return (
    <ul className="divide-y divide-mango-50 text-sm">
      {lines.map((line) => (
        <li key={line.name} className="flex justify-between gap-4 py-1.5">
          <span>
            {line.quantity} x {line.name}
            {line.isPreOrder && line.expectedAvailabilityDate ? ` (pre-order, ships after ${formatDate(line.expectedAvailabilityDate)})` : ''}
          </span>
          <span className="tabular-nums">{formatPrice(line.lineTotal)}</span>
        </li>
      ))}
    </ul>
  );
}
