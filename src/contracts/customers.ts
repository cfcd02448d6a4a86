import { z } from 'zod';
import type { OrderSummary, ShippingAddressView } from './order';

/** GET /api/admin/customers: search and the page. */
export const customerQuerySchema = z.strictObject({
  q: z.string({ error: 'Search must be text' }).trim().max(100, 'Search must be at most 100 characters').optional(),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(100_000).default(1),
  pageSize: z.coerce.number({ error: 'Page size must be a whole number' }).int('Page size must be a whole number').min(1).max(100, 'Page size must be at most 100').default(25),
});
export type CustomerQuery = z.output<typeof customerQuerySchema>;

/** PUT /api/admin/customers/:id/admin: grant or remove admin. */
export const adminRoleSchema = z.strictObject({ isAdmin: z.boolean({ error: 'isAdmin must be true or false' }) });

export interface CustomerRow {
  id: number;
  username: string;
  email: string;
  name: string;
  phone: string;
  isAdmin: boolean;
  joinedAt: string;
  orderCount: number;
  /** Total of orders paid or further along and not refunded, GST included, in dollars. */
  lifetimeSpend: number;
}

export interface CustomerPage {
  customers: CustomerRow[];
  total: number;
  page: number;
  pageSize: number;
}

export interface CustomerDetail extends CustomerRow {
  profileAddress: { address: string; city: string; postalCode: string; region: string };
  /** Every distinct address the customer's orders went to, most recent first. */
  shippingAddresses: ShippingAddressView[];
  orders: OrderSummary[];
}
