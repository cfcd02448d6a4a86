import { useQuery } from '../../../lib/query';
import { ArrowLeft, Mail } from 'lucide-react';
import type { CustomerDetail } from '../../../../contracts/customers';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { formatDate, formatPrice } from '../../../lib/format';
import { CustomerAddresses } from './customer-addresses';
import { CustomerAdminBadge } from './customer-admin-badge';
import { CustomerAdminRole } from './customer-admin-role';
import { CustomerOrders } from './customer-orders';
import { customerKey, fetchCustomer } from './customers-api';

/** One customer for staff: contact details, addresses, orders and the admin role. */
export function CustomerDetailView({ id, onBack }: { id: number; onBack: () => void }) {
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ queryKey: customerKey(id), queryFn: ({ signal }) => fetchCustomer(id, signal), retry: false, enabled: valid });
  const back = (
    <button type="button" onClick={onBack} className="inline-flex items-center gap-1 justify-self-start font-semibold text-mango-700 hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" /> All customers
    </button>
  );
  if (valid && query.isPending) return <Spinner />;
  if (!query.data) {
    const notFound = !valid || (query.error instanceof ApiError && query.error.status === 404);
    return (
      <section className="grid gap-3">
        {back}
        <h1 className="text-3xl font-semibold">{notFound ? 'Customer not found' : 'The customer could not be loaded'}</h1>
      </section>
    );
  }
  return <CustomerSheet customer={query.data} back={back} />;
}

function CustomerSheet({ customer, back }: { customer: CustomerDetail; back: React.ReactNode }) {
  const facts: [string, React.ReactNode][] = [
    ['Username', `@${customer.username}`],
    [
      'E-mail',
      <a key="email" href={`mailto:${customer.email}`} className="text-mango-700 [overflow-wrap:anywhere] hover:underline">
        {customer.email}
      </a>,
    ],
    [
      'Phone',
      customer.phone ? (
        <a key="phone" href={`tel:${customer.phone.replace(/\s/g, '')}`} className="text-mango-700 hover:underline">
          {customer.phone}
        </a>
      ) : (
        <span key="phone" className="text-ink-500">Not given</span>
      ),
    ],
    ['Joined', formatDate(customer.joinedAt)],
    ['Orders', customer.orderCount],
    ['Lifetime spend', formatPrice(customer.lifetimeSpend)],
  ];
  return (
    <section className="grid gap-6">
      {back}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="flex flex-wrap items-center gap-3 text-3xl font-semibold">
            {customer.name || customer.username}
            {customer.isAdmin && <CustomerAdminBadge />}
          </h1>
          <p className="text-ink-500">Customer since {formatDate(customer.joinedAt)}</p>
        </div>
        {/* The everyday action leads; the admin role is a quieter, confirmed one in its own panel. */}
        <a
          href={`mailto:${customer.email}`}
          className="inline-flex items-center gap-2 rounded-full bg-mango-500 px-5 py-2.5 text-sm font-semibold text-ink-900 hover:bg-mango-600"
        >
          <Mail className="size-4" aria-hidden="true" />
          E-mail {customer.name.split(' ')[0] || customer.username}
        </a>
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <CustomerOrders orders={customer.orders} />
        <div className="grid gap-6">
          <Panel title="Contact details" level={2} className="gap-3">
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
              {facts.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-ink-500">{label}</dt>
                  <dd className="tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
          </Panel>
          <CustomerAddresses profile={customer.profileAddress} shipping={customer.shippingAddresses} />
          <Panel title="Staff access" level={2} className="gap-3">
            <p className="text-sm text-ink-500">
              {customer.isAdmin ? 'This account can open the admin area.' : 'A customer account. Staff accounts can open the admin area.'}
            </p>
            <div>
              <CustomerAdminRole customer={customer} />
            </div>
          </Panel>
        </div>
      </div>
    </section>
  );
}
