import { Link } from 'react-router';
import type { CustomerRow } from '../../../../contracts/customers';
import { formatDate, formatPrice } from '../../../lib/format';
import { CustomerAdminBadge } from './customer-admin-badge';

interface CustomerTableProps {
  customers: CustomerRow[];
  /** Where a customer's name leads: the same screen with `?customer=<id>`. */
  detailHref: (id: number) => string;
}

function CustomerName({ customer, detailHref }: { customer: CustomerRow; detailHref: CustomerTableProps['detailHref'] }) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Link to={detailHref(customer.id)} className="font-semibold text-mango-700 hover:underline">
        {customer.name || customer.username}
      </Link>
      {customer.isAdmin && <CustomerAdminBadge />}
    </span>
  );
}

/** Customers as a table from tablet width up, and as a list of cards on a phone. */
export function CustomerTable({ customers, detailHref }: CustomerTableProps) {
  return (
    <>
      <ul className="grid md:hidden" aria-label="Customers, newest first">
        {customers.map((customer) => (
          <li key={customer.id} className="grid gap-0.5 border-b border-mango-50 py-3 text-sm first:pt-0">
            <CustomerName customer={customer} detailHref={detailHref} />
            <span className="text-ink-500">@{customer.username}</span>
            <span className="[overflow-wrap:anywhere]">{customer.email}</span>
            {customer.phone && <span>{customer.phone}</span>}
            <span className="text-ink-500">
              Joined {formatDate(customer.joinedAt)} · {customer.orderCount} {customer.orderCount === 1 ? 'order' : 'orders'} ·{' '}
              <span className="tabular-nums">{formatPrice(customer.lifetimeSpend)}</span>
            </span>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full min-w-[48rem] text-left text-sm">
          <caption className="sr-only">Customers, newest first</caption>
          <thead>
            <tr className="border-b border-ink-500/30">
              <th scope="col" className="py-2 pr-3 font-semibold">Customer</th>
              <th scope="col" className="py-2 pr-3 font-semibold">E-mail</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Phone</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Joined</th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">Orders</th>
              <th scope="col" className="py-2 text-right font-semibold">Lifetime spend</th>
            </tr>
          </thead>
          <tbody>
            {customers.map((customer) => (
              <tr key={customer.id} className="border-b border-mango-50 align-top">
                <th scope="row" className="py-2 pr-3 font-normal">
                  <CustomerName customer={customer} detailHref={detailHref} />
                  <span className="block text-ink-500">@{customer.username}</span>
                </th>
                <td className="py-2 pr-3 [overflow-wrap:anywhere]">{customer.email}</td>
                <td className="py-2 pr-3 whitespace-nowrap">{customer.phone}</td>
                <td className="py-2 pr-3 whitespace-nowrap">{formatDate(customer.joinedAt)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{customer.orderCount}</td>
                <td className="py-2 text-right tabular-nums">{formatPrice(customer.lifetimeSpend)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
