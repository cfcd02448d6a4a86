import { formatPrice } from '../../lib/format';
import { useSettings } from '../frame/use-settings';

interface Totals {
  subtotal: number;
  shipping: number;
  /** Shown only when the order pays it. */
  ruralSurcharge?: number;
  discount: number;
  gst: number;
  total: number;
  promoCode?: string | null;
  /** Collected from the shop: the delivery row reads as a free pickup. */
  fulfilment?: 'delivery' | 'pickup';
}

/**
 * Subtotal, shipping, discount, total and its GST part: the same rows on checkout, order and
 * receipt. The GST part only from a shop registered for GST: an unregistered one charges none.
 */
export function OrderTotals({ totals }: { totals: Totals }) {
  const registered = Boolean(useSettings().data?.gstNumber);
  const row = 'flex justify-between gap-4';
  return (
    <dl className="grid gap-2 text-sm">
      <div className={row}>
        <dt>Subtotal</dt>
        <dd className="tabular-nums">{formatPrice(totals.subtotal)}</dd>
      </div>
      <div className={row}>
        <dt>{totals.fulfilment === 'pickup' ? 'Pickup from the shop' : 'Shipping (NZ-wide)'}</dt>
        <dd className="tabular-nums">{formatPrice(totals.shipping)}</dd>
      </div>
      {(totals.ruralSurcharge ?? 0) > 0 && (
        <div className={row}>
          <dt>Rural delivery</dt>
          <dd className="tabular-nums">{formatPrice(totals.ruralSurcharge ?? 0)}</dd>
        </div>
      )}
      {totals.discount > 0 && (
        <div className={`${row} text-leaf-700`}>
          <dt>Discount{totals.promoCode ? ` (${totals.promoCode})` : ''}</dt>
          <dd className="tabular-nums">-{formatPrice(totals.discount)}</dd>
        </div>
      )}
      <div className={`${row} border-t border-mango-50 pt-2 text-lg font-semibold`}>
        <dt>Total</dt>
        <dd className="tabular-nums">{formatPrice(totals.total)}</dd>
      </div>
      {registered && (
        <div className={`${row} text-ink-500`}>
          <dt>Includes GST (15%)</dt>
          <dd className="tabular-nums">{formatPrice(totals.gst)}</dd>
        </div>
      )}
    </dl>
  );
}
