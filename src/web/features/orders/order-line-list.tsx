import type { ReactNode } from 'react';
import type { OrderLineView } from '../../../contracts/order';
import { formatDate, formatPrice } from '../../lib/format';

/** A pre-order line's state: its boxes set aside from a shipment, or when they are expected. */
export function preOrderNote(line: OrderLineView): string {
  if (!line.isPreOrder) return '';
  if (line.allocated) return 'pre-order, boxes set aside';
  return line.expectedAvailabilityDate ? `pre-order, ships after ${formatDate(line.expectedAvailabilityDate)}` : 'pre-order';
}

/** "2 x Alphonso Mangoes ... $129.98" for each line; pre-orders say when they ship; `notes` add to a line (staff: its batches). */
export function OrderLineList({ lines, notes }: { lines: OrderLineView[]; notes?: ReadonlyArray<ReactNode> }) {
  return (
    <ul className="divide-y divide-mango-50 text-sm">
      {lines.map((line, index) => (
        <li key={line.name} className="flex justify-between gap-4 py-1.5">
          <span>
            {line.quantity} x {line.name}
            {line.isPreOrder ? ` (${preOrderNote(line)})` : ''}
            {notes?.[index]}
          </span>
          <span className="tabular-nums">{formatPrice(line.lineTotal)}</span>
        </li>
      ))}
    </ul>
  );
}
