import { Printer } from 'lucide-react';
import type { AdminOrderDetail } from '../../../../contracts/admin-orders';
import type { LinePacking } from '../../../../contracts/batches';
import { originView, treatmentLabels } from '../../../../contracts/origin';
import type { ShippingAddressView } from '../../../../contracts/order';
import { Button } from '../../../components/ui/button';
import { DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { formatDay } from '../../../../contracts/dates';
import { formatDate } from '../../../lib/format';

/** What a slip shows of an order: the order's detail and the dispatch list each have these. */
export interface SlipOrder {
  address: ShippingAddressView;
  deliveryInstructions: string;
  deliveryDate: string | null;
  dispatchDate: string | null;
  rural: boolean;
  gift: { message: string } | null;
  /** A pickup order's code: its boxes wait at the shop for the person showing it. */
  pickupCode?: string | null;
  lines: ReadonlyArray<{ name: string; quantity: number; isPreOrder: boolean; batches?: LinePacking | null }>;
}

/** Where a line's boxes come from, as the packer reads it: "Batch 12 (best before 3 December 2026, Rangi Orchard)". */
export function BatchSources({ packing }: { packing: LinePacking | null | undefined }) {
  if (!packing) return null;
  const sources = packing.from.map((part) => {
    const details = [
      part.bestBefore ? `best before ${formatDate(part.bestBefore)}` : 'dates unknown',
      part.grower,
      part.originCountry ? originView([part.originCountry]).label : null,
      part.treatment ? treatmentLabels[part.treatment].toLowerCase() : null,
    ]
      .filter(Boolean)
      .join(', ');
    return `${part.boxes} from batch ${part.batchId} (${details})`;
  });
  if (packing.short > 0) sources.push(`${packing.short} not in any batch: record the batch on Inventory`);
  return (
    <span className="block text-xs text-ink-500">
      {packing.planned ? 'Take ' : 'Packed: '}
      {sources.join('; ')}
    </span>
  );
}

/** Where the box goes, on which day, and what goes in it with a tick box per line; no prices. */
export function PackingSlipBody({ order }: { order: SlipOrder }) {
  const { address } = order;
  return (
    <>
      {order.pickupCode ? (
        <div>
          <p className="font-semibold">PICKUP at the shop: code {order.pickupCode}</p>
          <p>
            For {address.name}, {address.phone}
          </p>
        </div>
      ) : (
      <div>
        <p className="font-semibold">Deliver to</p>
        <p>{address.name}</p>
        <p>
          {address.street}
          {address.suburb ? `, ${address.suburb}` : ''}
        </p>
        <p>
          {address.city} {address.postcode}, {address.region}
        </p>
        <p>{address.phone}</p>
        {order.deliveryInstructions && <p className="mt-1">Instructions: {order.deliveryInstructions}</p>}
      </div>
      )}
      <p className="text-base font-semibold">
        {order.pickupCode && order.deliveryDate ? `Collected on ${formatDay(order.deliveryDate)}` : order.deliveryDate ? `Deliver on ${formatDay(order.deliveryDate)}` : 'Delivery day not set yet'}
        {order.dispatchDate ? ` · dispatch ${formatDay(order.dispatchDate)}` : ''}
        {order.rural ? ' · RURAL DELIVERY' : ''}
      </p>
      {order.gift && (
        <div className="rounded-lg border-2 border-dashed border-mango-600 p-3">
          <p className="font-semibold">GIFT: put no invoice or receipt in the box</p>
          {order.gift.message ? (
            <p className="mt-2 whitespace-pre-line font-serif text-base">{order.gift.message}</p>
          ) : (
            <p className="mt-1 text-ink-500">No gift message.</p>
          )}
        </div>
      )}
      <table className="w-full text-left">
        <thead>
          <tr className="border-b border-ink-500/30">
            <th scope="col" className="py-1 font-semibold">Packed</th>
            <th scope="col" className="py-1 font-semibold">Boxes</th>
            <th scope="col" className="py-1 font-semibold">Variety</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.name} className="border-b border-mango-50">
              <td className="py-1" aria-label="Packed check box">
                ☐
              </td>
              <td className="py-1 tabular-nums">{line.quantity}</td>
              <td className="py-1">
                {line.name}
                {line.isPreOrder ? ' (pre-order)' : ''}
                <BatchSources packing={line.batches} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** What goes in the box: lines and quantities, the address and the instructions; no prices. */
export function PackingSlip({ order }: { order: AdminOrderDetail }) {
  return (
    <article data-print className="grid gap-4 text-sm">
      <header className="grid gap-1 pr-8">
        <DialogTitle className="text-2xl font-semibold">Packing slip</DialogTitle>
        <DialogDescription className="text-ink-500">
          Order {order.number}, placed {formatDate(order.placedAt)}
        </DialogDescription>
      </header>
      <PackingSlipBody order={{ ...order, address: order.shippingAddress, pickupCode: order.pickup?.code ?? null, lines: order.lines.map((line, index) => ({ ...line, batches: order.lineBatches[index] })) }} />
      <Button variant="outline" className="justify-self-start print:hidden" onClick={() => window.print()}>
        <Printer className="size-4" aria-hidden="true" /> Print packing slip
      </Button>
    </article>
  );
}
