import type { CustomerDetail, CustomerPage } from '../../../../contracts/customers';
import { apiRequest } from '../../../lib/api-client';
import { filterQuery } from '../shared/admin-api';

export interface CustomerFilters {
  q?: string;
  page: number;
  pageSize: number;
}

export const customersKey = (filters: CustomerFilters) => ['admin', 'customers', filters] as const;
export const customerKey = (id: number) => ['admin', 'customer', id] as const;

export const fetchCustomers = (filters: CustomerFilters, signal?: AbortSignal) => apiRequest<CustomerPage>(`/api/admin/customers${filterQuery(filters)}`, { signal });

export const fetchCustomer = (id: number, signal?: AbortSignal) => apiRequest<CustomerDetail>(`/api/admin/customers/${id}`, { signal });

/** Grants or removes the admin role; the server refuses to remove the last admin (409). */
export const putCustomerAdmin = (id: number, isAdmin: boolean) =>
  apiRequest<CustomerDetail>(`/api/admin/customers/${id}/admin`, { method: 'PUT', body: { isAdmin } });
