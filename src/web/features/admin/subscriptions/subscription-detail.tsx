import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatDay } from '../../../../contracts/dates';
import { formatNzd } from '../../../../contracts/money';
import { paymentMethodLabels } from '../../../../contracts/order';
import type { AdminSubscriptionDetail } from '../../../../contracts/subscriptions';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useQuery } from '../../../lib/query';
import { scheduleText } from './season-box-words';
import { ComingBoxes, DeliveryHistory } from './subscription-deliveries';
import { SubscriptionStatusBadge } from './subscription-status-badge';
import { fetchStaffSubscription, staffSubscriptionKey } from './subscriptions-api';

/** One season box for staff: who, what and how often, the boxes to come and what became of the past ones. */
export function SubscriptionDetailView({ id, onBack }: { id: number; onBack: () => void }) {
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ queryKey: staffSubscriptionKey(id), queryFn: ({ signal }) => fetchStaffSubscription(id, signal), retry: false, enabled: valid });
  const back = (
    <button type="button" onClick={onBack} className="inline-flex items-center gap-1 justify-self-start font-semibold text-mango-700 hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" /> All season boxes
    </button>
  );
  if (valid && query.isPending) return <Spinner />;
  if (!query.data) {
    const notFound = !valid || (query.error instanceof ApiError && query.error.status === 404);
    return (
      <section className="grid gap-3">
        {back}
        <h1 className="text-3xl font-semibold">{notFound ? 'Season box not found' : 'The season box could not be loaded'}</h1>
      </section>
    );
  }
  return <SubscriptionSheet detail={query.data} back={back} />;
}

export function SubscriptionSheet({ detail, back }: { detail: AdminSubscriptionDetail; back: ReactNode }) {
  const view = detail.subscription;
  const shipping = view.shipping;
  const facts: [string, ReactNode][] = [
    [
      'Customer',
      <Link key="customer" to={`/admin/customers?${new URLSearchParams({ customer: String(detail.customer.id) })}`} className="text-mango-700 hover:underline">
        {detail.customer.name}
      </Link>,
    ],
    [
      'E-mail',
      <a key="email" href={`mailto:${detail.customer.email}`} className="text-mango-700 [overflow-wrap:anywhere] hover:underline">
        {detail.customer.email}
      </a>,
    ],
    ['Product', `${view.product.name} × ${view.quantity}`],
    ['How often', scheduleText(view.every, view.weekday)],
    ['Price today', `${formatNzd(view.unitPriceCents)} a box (${view.product.subscriberDiscountPercent}% off), delivery ${formatNzd(view.deliveryCents)}`],
    ['Payment', paymentMethodLabels[view.paymentMethod]],
    ['First box', formatDay(view.firstDeliveryDate)],
    ['Last box', view.lastDeliveryDate ? formatDay(view.lastDeliveryDate) : 'Until the season’s end is set on the product'],
    ...(view.status === 'paused' ? [['Paused until', view.pausedUntil ? formatDay(view.pausedUntil) : 'The shopper starts it again'] as [string, ReactNode]] : []),
    [
      'Deliver to',
      <span key="address" className="grid">
        <span>
          {shipping.name} · {shipping.phone}
        </span>
        <span>
          {[shipping.street, shipping.suburb, `${shipping.city} ${shipping.postcode}`, shipping.region].filter(Boolean).join(', ')}
        </span>
        {shipping.deliveryInstructions && <span className="text-ink-500">“{shipping.deliveryInstructions}”</span>}
      </span>,
    ],
    ['Set up', formatDateTime(view.createdAt)],
  ];
  return (
    <section className="grid gap-6">
      {back}
      <div className="grid gap-1">
        <h1 className="flex flex-wrap items-center gap-3 text-3xl font-semibold">
          Season box for {detail.customer.name}
          <SubscriptionStatusBadge status={detail.status} />
        </h1>
        <p className="text-ink-500">
          {view.product.name} × {view.quantity} · {scheduleText(view.every, view.weekday)}
          {detail.nextDeliveryDate && ` · next box ${formatDay(detail.nextDeliveryDate)}`}
        </p>
      </div>
      <Panel title="Coming boxes" className="gap-3">
        <ComingBoxes boxes={view.coming} />
      </Panel>
      <Panel title="History" className="gap-3">
        <DeliveryHistory entries={detail.history} />
      </Panel>
      <Panel title="Details" className="gap-3">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm lg:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)]">
          {facts.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-ink-500">{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </Panel>
    </section>
  );
}
