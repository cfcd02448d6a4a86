import { Link } from 'react-router';
import { formatDay } from '../../../../contracts/dates';
import { paymentMethodLabels } from '../../../../contracts/order';
import type { AdminSubscriptionSummary } from '../../../../contracts/subscriptions';
import { scheduleText } from './season-box-words';
import { SubscriptionStatusBadge } from './subscription-status-badge';

interface SubscriptionTableProps {
  subscriptions: AdminSubscriptionSummary[];
  /** Where a row leads: the same screen with `?subscription=<id>`. */
  detailHref: (id: number) => string;
}

/** The customer's name, a link stretched over its whole row or card so a click anywhere opens it. */
function CustomerLink({ subscription, detailHref }: { subscription: AdminSubscriptionSummary; detailHref: SubscriptionTableProps['detailHref'] }) {
  return (
    <Link to={detailHref(subscription.id)} className="font-semibold text-mango-700 after:absolute after:inset-0 after:content-[''] hover:underline">
      {subscription.customer.name}
      <span className="sr-only">: season box {subscription.id}</span>
    </Link>
  );
}

const nextBox = (subscription: AdminSubscriptionSummary) => (subscription.nextDeliveryDate ? formatDay(subscription.nextDeliveryDate) : 'None to come');
const boxes = (subscription: AdminSubscriptionSummary) => `${subscription.productName} × ${subscription.quantity}`;

/** Season boxes as a table from tablet width up, and as a list of cards on a phone. */
export function SubscriptionTable({ subscriptions, detailHref }: SubscriptionTableProps) {
  return (
    <>
      <ul className="grid gap-2 md:hidden" aria-label="Season boxes, newest first">
        {subscriptions.map((subscription) => (
          <li key={subscription.id} className="relative grid gap-0.5 rounded-xl p-3 text-sm ring-1 ring-ink-500/20 hover:ring-mango-500">
            <span className="flex flex-wrap items-center justify-between gap-2">
              <CustomerLink subscription={subscription} detailHref={detailHref} />
              <SubscriptionStatusBadge status={subscription.status} />
            </span>
            <span className="text-ink-500 [overflow-wrap:anywhere]">{subscription.customer.email}</span>
            <span>
              {boxes(subscription)} · {scheduleText(subscription.every, subscription.weekday)}
            </span>
            <span className="text-ink-500">
              {paymentMethodLabels[subscription.paymentMethod]} · next box: {nextBox(subscription)}
            </span>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <caption className="sr-only">Season boxes, newest first</caption>
          <thead>
            <tr className="border-b border-ink-500/30">
              <th scope="col" className="py-2 pr-3 font-semibold">Customer</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Product</th>
              <th scope="col" className="py-2 pr-3 font-semibold">How often</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Payment</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Next box</th>
              <th scope="col" className="py-2 font-semibold">Status</th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.map((subscription) => (
              <tr key={subscription.id} className="relative border-b border-mango-50 align-top hover:bg-mango-50">
                <th scope="row" className="py-2 pr-3 font-normal">
                  <CustomerLink subscription={subscription} detailHref={detailHref} />
                  <span className="block text-ink-500 [overflow-wrap:anywhere]">{subscription.customer.email}</span>
                </th>
                <td className="py-2 pr-3">{boxes(subscription)}</td>
                <td className="py-2 pr-3">{scheduleText(subscription.every, subscription.weekday)}</td>
                <td className="py-2 pr-3">{paymentMethodLabels[subscription.paymentMethod]}</td>
                <td className="whitespace-nowrap py-2 pr-3">{nextBox(subscription)}</td>
                <td className="py-2">
                  <SubscriptionStatusBadge status={subscription.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
