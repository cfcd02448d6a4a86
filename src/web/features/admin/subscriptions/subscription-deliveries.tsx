import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatDay } from '../../../../contracts/dates';
import { formatNzd } from '../../../../contracts/money';
import { type OrderStatus, orderStatuses } from '../../../../contracts/order';
import type { SeasonBoxDelivery, SubscriptionHistoryEntry } from '../../../../contracts/subscriptions';
import { OrderStatusBadge } from '../../orders/order-status-badge';
import { deliveryStateLabels } from './season-box-words';

const isOrderStatus = (status: string | null): status is OrderStatus => status !== null && (orderStatuses as readonly string[]).includes(status);

/** An order in the orders screen, opened at its detail (as every admin screen links one). */
function OrderLink({ number }: { number: string }) {
  return (
    <Link to={`/admin/orders?${new URLSearchParams({ order: number })}`} className="font-semibold text-mango-700 hover:underline">
      {number}
    </Link>
  );
}

const head = 'whitespace-nowrap py-2 pr-3 font-semibold';
const cell = 'py-2 pr-3';

/** A table a phone scrolls sideways inside its own box, named for screen readers. */
function DeliveryTable({ caption, headings, children }: { caption: string; headings: string[]; children: ReactNode }) {
  return (
    <div role="region" aria-label={`${caption}, scrolls sideways`} tabIndex={0} className="overflow-x-auto">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-ink-500/30">
            {headings.map((heading) => (
              <th key={heading} scope="col" className={`${head} ${heading === 'Total' ? 'text-right' : ''}`}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The next boxes as the schedule stands: skipped, changed and paused ones shown as such. */
export function ComingBoxes({ boxes }: { boxes: SeasonBoxDelivery[] }) {
  if (!boxes.length) return <p className="text-sm text-ink-500">No boxes to come.</p>;
  return (
    <DeliveryTable caption="Coming boxes" headings={['Delivery date', 'State', 'Boxes', 'Total', 'Cut-off']}>
      {boxes.map((box) => (
        <tr key={box.date} className="border-b border-mango-50 align-top last:border-0">
          <th scope="row" className={`${cell} whitespace-nowrap font-semibold`}>
            {formatDay(box.date)}
          </th>
          <td className={cell}>
            <span className="block">{deliveryStateLabels[box.state]}</span>
            {box.orderNumber && <OrderLink number={box.orderNumber} />}
            {box.note && <span className="block text-ink-500">{box.note}</span>}
          </td>
          <td className={cell}>
            {box.productName} × {box.quantity}
            {box.changedForThisBox && <span className="block text-ink-500">Changed for this box only</span>}
          </td>
          <td className={`${cell} text-right tabular-nums`}>{formatNzd(box.totalCents)}</td>
          <td className={`${cell} whitespace-nowrap`}>
            {formatDateTime(box.cutoffAt)}
            {!box.open && <span className="block text-ink-500">Passed</span>}
          </td>
        </tr>
      ))}
    </DeliveryTable>
  );
}

/** Past deliveries, newest first: the order made (with its status now), a skip, or a miss, and why. */
export function DeliveryHistory({ entries }: { entries: SubscriptionHistoryEntry[] }) {
  if (!entries.length) return <p className="text-sm text-ink-500">No box has been ordered, skipped or missed yet.</p>;
  return (
    <DeliveryTable caption="History" headings={['Delivery date', 'What happened', 'Order', 'Total', 'Notes']}>
      {entries.map((entry) => (
        <tr key={entry.date} className="border-b border-mango-50 align-top last:border-0">
          <th scope="row" className={`${cell} whitespace-nowrap font-semibold`}>
            {formatDay(entry.date)}
          </th>
          <td className={cell}>
            <span className="flex flex-wrap items-center gap-2">
              {deliveryStateLabels[entry.state]}
              {isOrderStatus(entry.orderStatus) && <OrderStatusBadge status={entry.orderStatus} />}
            </span>
          </td>
          <td className={cell}>{entry.orderNumber ? <OrderLink number={entry.orderNumber} /> : <span className="text-ink-500">None</span>}</td>
          <td className={`${cell} text-right tabular-nums`}>{entry.totalCents === null ? '' : formatNzd(entry.totalCents)}</td>
          <td className={`${cell} text-ink-500`}>{entry.note}</td>
        </tr>
      ))}
    </DeliveryTable>
  );
}
