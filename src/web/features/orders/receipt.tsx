import { Printer } from 'lucide-react';
import type { OrderView } from '../../../contracts/order';
import { Button } from '../../components/ui/button';
import { DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { formatDay } from '../../../contracts/dates';
import { formatDate, formatPrice } from '../../lib/format';
import { useSettings } from '../frame/use-settings';

/**
 * A receipt with the NZ taxable supply information: the seller's name and GST number, the date,
 * what was supplied, the total and the GST it includes (and, over $1,000, the buyer's name and address).
 */
export function Receipt({ order }: { order: OrderView }) {
  const settings = useSettings().data;
  const address = order.shippingAddress;
  return (
    <article data-print className="grid gap-4 text-sm">
      <header className="grid gap-1 pr-8">
        <DialogTitle className="text-2xl font-semibold">Tax invoice / receipt</DialogTitle>
        <DialogDescription className="text-ink-500">
          Order {order.number}, issued {formatDate(order.placedAt)}
        </DialogDescription>
      </header>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <p className="font-semibold">Seller</p>
          <p>{settings?.siteName ?? 'Mango Shop'}</p>
          {settings?.contact.address && <p>{settings.contact.address}</p>}
          <p>GST number: {settings?.gstNumber || 'not yet registered'}</p>
        </div>
        <div>
          <p className="font-semibold">Buyer</p>
          <p>{address.name}</p>
          <p>
            {address.street}
            {address.suburb ? `, ${address.suburb}` : ''}, {address.city} {address.postcode}
          </p>
        </div>
      </div>
      <table className="w-full text-left">
        <thead>
          <tr className="border-b border-ink-500/30">
            <th scope="col" className="py-1 font-semibold">Description</th>
            <th scope="col" className="py-1 text-right font-semibold">Qty</th>
            <th scope="col" className="py-1 text-right font-semibold">Unit price</th>
            <th scope="col" className="py-1 text-right font-semibold">Amount</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.name} className="border-b border-mango-50">
              <td className="py-1">{line.name}{line.isPreOrder ? ' (pre-order)' : ''}</td>
              <td className="py-1 text-right tabular-nums">{line.quantity}</td>
              <td className="py-1 text-right tabular-nums">{formatPrice(line.unitPrice)}</td>
              <td className="py-1 text-right tabular-nums">{formatPrice(line.lineTotal)}</td>
            </tr>
          ))}
          <tr>
            <td className="py-1" colSpan={3}>
              Shipping (NZ-wide){order.deliveryDate ? `, delivery ${formatDay(order.deliveryDate)}` : ''}
            </td>
            <td className="py-1 text-right tabular-nums">{formatPrice(order.shipping)}</td>
          </tr>
          {order.ruralSurcharge > 0 && (
            <tr>
              <td className="py-1" colSpan={3}>Rural delivery</td>
              <td className="py-1 text-right tabular-nums">{formatPrice(order.ruralSurcharge)}</td>
            </tr>
          )}
          {order.discount > 0 && (
            <tr>
              <td className="py-1" colSpan={3}>Discount{order.promoCode ? ` (${order.promoCode})` : ''}</td>
              <td className="py-1 text-right tabular-nums">-{formatPrice(order.discount)}</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr className="border-t border-ink-900 text-base font-semibold">
            <td className="py-1" colSpan={3}>Total (GST inclusive)</td>
            <td className="py-1 text-right tabular-nums">{formatPrice(order.total)}</td>
          </tr>
          <tr>
            <td className="py-1" colSpan={3}>GST included (15%)</td>
            <td className="py-1 text-right tabular-nums">{formatPrice(order.gst)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="text-ink-500">All prices are in New Zealand dollars and include GST.</p>
      <Button variant="outline" className="justify-self-start print:hidden" onClick={() => window.print()}>
        <Printer className="size-4" aria-hidden="true" /> Print receipt
      </Button>
    </article>
  );
}
