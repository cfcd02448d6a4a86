import { Printer } from 'lucide-react';
import type { OrderView } from '../../../contracts/order';
import { Button } from '../../components/ui/button';
import { DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { formatDay } from '../../../contracts/dates';
import { formatDate, formatPrice } from '../../lib/format';
import { useAuth } from '../auth/auth-provider';
import { useSettings } from '../frame/use-settings';

/**
 * A shop registered for GST issues a tax invoice with IRD's taxable supply information: the
 * seller's name and GST number, the date, each supply with its quantity, the total, the GST it
 * includes, and the buyer's name and contact (asked for over $1,000, given always). A shop not
 * registered issues a receipt: no GST number and no GST line, since it charges none. The buyer is
 * whoever placed the order; a gift's recipient is only where it went.
 */
export function Receipt({ order }: { order: OrderView }) {
  const settings = useSettings().data;
  const { user } = useAuth();
  const registered = Boolean(settings?.gstNumber);
  const address = order.shippingAddress;
  const buyerName = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : address.name;
  const addressLine = `${address.street}${address.suburb ? `, ${address.suburb}` : ''}, ${address.city} ${address.postcode}`;
  return (
    <article data-print className="grid gap-4 text-sm">
      <header className="grid gap-1 pr-8">
        <DialogTitle className="text-2xl font-semibold">{registered ? 'Tax invoice / receipt' : 'Receipt'}</DialogTitle>
        <DialogDescription className="text-ink-500">
          Order {order.number}, issued {formatDate(order.placedAt)}
        </DialogDescription>
      </header>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <p className="font-semibold">Seller</p>
          <p>{settings?.siteName ?? 'Mango Shop'}</p>
          {settings?.contact.address && <p>{settings.contact.address}</p>}
          {registered && <p>GST number: {settings!.gstNumber}</p>}
        </div>
        <div>
          <p className="font-semibold">Buyer</p>
          <p>{buyerName}</p>
          {user && <p>{user.email}</p>}
          {order.gift ? (
            <p className="text-ink-500">
              Sent as a gift to {address.name}, {address.city}
            </p>
          ) : (
            order.fulfilment === 'delivery' && <p>{addressLine}</p>
          )}
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
            <td className="py-1" colSpan={3}>{registered ? 'Total (GST inclusive)' : 'Total'}</td>
            <td className="py-1 text-right tabular-nums">{formatPrice(order.total)}</td>
          </tr>
          {registered && (
            <tr>
              <td className="py-1" colSpan={3}>GST included (15%)</td>
              <td className="py-1 text-right tabular-nums">{formatPrice(order.gst)}</td>
            </tr>
          )}
        </tfoot>
      </table>
      <p className="text-ink-500">{registered ? 'All prices are in New Zealand dollars and include GST.' : 'All prices are in New Zealand dollars. We are not registered for GST, so no GST is charged.'}</p>
      <Button variant="outline" className="justify-self-start print:hidden" onClick={() => window.print()}>
        <Printer className="size-4" aria-hidden="true" /> Print receipt
      </Button>
    </article>
  );
}
