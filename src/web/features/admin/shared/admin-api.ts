import type { AdminOrderDetail, AdminOrderPage, BulkStatusResult, OrderStatusChange, PreOrderFilter, ResentMail } from '../../../../contracts/admin-orders';
import type { Fulfilment } from '../../../../contracts/pickup';
import type { WaitlistCount } from '../../../../contracts/waitlist';
import type { InventoryRow, StockAdjustment, StockMovementView } from '../../../../contracts/inventory';
import type { OrderStatus } from '../../../../contracts/order';
import type { AllocationResult, PreOrderBook, ShipmentInput } from '../../../../contracts/pre-order';
import { apiRequest } from '../../../lib/api-client';

export interface OrderFilters {
  status?: OrderStatus;
  from?: string;
  to?: string;
  day?: string;
  preOrder?: PreOrderFilter;
  fulfilment?: Fulfilment;
  q?: string;
  page?: number;
  pageSize?: number;
}

/** The filters as a query string, without the empty ones. */
export function filterQuery(filters: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const staffOrdersKey = (filters: OrderFilters) => ['admin', 'orders', filters] as const;
export const staffOrderKey = (number: string) => ['admin', 'order', number] as const;

export const fetchStaffOrders = (filters: OrderFilters, signal?: AbortSignal) => apiRequest<AdminOrderPage>(`/api/admin/orders${filterQuery(filters)}`, { signal });

export const fetchStaffOrder = (number: string, signal?: AbortSignal) =>
  apiRequest<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(number)}`, { signal });

export const postOrderStatus = (number: string, change: Partial<OrderStatusChange>) =>
  apiRequest<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(number)}/status`, { method: 'POST', body: change });

export const postBulkStatus = (status: 'paid' | 'packed', numbers: string[]) =>
  apiRequest<BulkStatusResult>('/api/admin/orders/bulk-status', { method: 'POST', body: { status, numbers } });

export const postOrderNote = (number: string, text: string) =>
  apiRequest<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(number)}/notes`, { method: 'POST', body: { text } });

export const postResendEmail = (number: string) => apiRequest<ResentMail>(`/api/admin/orders/${encodeURIComponent(number)}/resend-email`, { method: 'POST' });

export const inventoryKey = ['admin', 'inventory'] as const;
export const movementsKey = (productId: number) => ['admin', 'movements', productId] as const;

export const fetchInventory = (signal?: AbortSignal) => apiRequest<InventoryRow[]>('/api/admin/inventory', { signal });

export const waitlistCountsKey = ['admin', 'waitlists'] as const;
export const fetchWaitlistCounts = (signal?: AbortSignal) => apiRequest<WaitlistCount[]>('/api/admin/waitlists', { signal });
/** A product's confirmed waitlist as a spreadsheet: a plain link, the browser downloads it. */
export const waitlistCsvPath = (productId: number) => `/api/admin/waitlists/${productId}.csv`;

export const fetchMovements = (productId: number, signal?: AbortSignal) =>
  apiRequest<StockMovementView[]>(`/api/admin/inventory/${productId}/movements`, { signal });

export const postAdjustment = (productId: number, adjustment: StockAdjustment) =>
  apiRequest<InventoryRow>(`/api/admin/inventory/${productId}/adjustments`, { method: 'POST', body: adjustment });

export const preOrderBookKey = (productId: number) => ['admin', 'pre-orders', productId] as const;

export const fetchPreOrderBook = (productId: number, signal?: AbortSignal) => apiRequest<PreOrderBook>(`/api/admin/inventory/${productId}/pre-orders`, { signal });

export const postShipment = (productId: number, shipment: ShipmentInput) =>
  apiRequest<AllocationResult>(`/api/admin/inventory/${productId}/shipments`, { method: 'POST', body: shipment });

export const postAllocateStock = (productId: number) => apiRequest<AllocationResult>(`/api/admin/inventory/${productId}/pre-orders/allocate`, { method: 'POST' });

export const postExpectedDate = (productId: number, change: { expectedAvailabilityDate: string; note?: string }) =>
  apiRequest<{ notified: number }>(`/api/admin/inventory/${productId}/pre-orders/expected-date`, { method: 'POST', body: change });

export const postCancelWaiting = (productId: number, reason: string) =>
  apiRequest<{ cancelled: string[]; refunded: string[]; skipped: Array<{ orderNumber: string; reason: string }> }>(`/api/admin/inventory/${productId}/pre-orders/cancel-waiting`, { method: 'POST', body: { reason } });

export const postOpenSales = (productId: number) => apiRequest<{ stock: number }>(`/api/admin/inventory/${productId}/open-sales`, { method: 'POST' });
