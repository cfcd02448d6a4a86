import type { Fulfilment } from '../../../contracts/pickup';
import { ordersBusyMessage, type PlaceOrderInput, rushRetryPauseMs } from '../../../contracts/checkout';
import type { DeliveryDayOption } from '../../../contracts/delivery';
import type { CheckoutPaymentMethod, OrderSummary, OrderView, PlacedOrder } from '../../../contracts/order';
import { ApiError, apiRequest } from '../../lib/api-client';

/** The checkout quote: the same numbers the order will have, priced by the server from the cart. */
export interface Quote {
  lines: Array<{
    id: number;
    productId: number;
    name: string;
    imageUrl: string;
    unitPrice: number;
    quantity: number;
    lineTotal: number;
    isPreOrder: boolean;
    expectedAvailabilityDate: string | null;
  }>;
  subtotal: number;
  shipping: number;
  ruralSurcharge: number;
  discount: number;
  gst: number;
  total: number;
  promo: { code: string; applied: boolean; message: string } | null;
  paymentMethods: CheckoutPaymentMethod[];
}

export const ordersQueryKey = ['orders'] as const;
export const orderQueryKey = (number: string) => ['orders', number] as const;

export const postQuote = (promoCode: string | undefined, rural: boolean, signal?: AbortSignal, fulfilment: Fulfilment = 'delivery') =>
  apiRequest<Quote>('/api/checkout/quote', { method: 'POST', body: { ...(promoCode ? { promoCode } : {}), rural, fulfilment }, signal });

/** The delivery dates a region can have for an order of `boxes`, and what rural delivery adds. */
export interface DeliveryDates {
  region: string;
  dates: DeliveryDayOption[];
  ruralSurcharge: number;
}

/** The days offered to `region` for `boxes`; a bank transfer's start a packing day later (it needs a day to arrive). */
export const fetchDeliveryDates = (region: string, boxes: number, payment: CheckoutPaymentMethod | undefined, signal?: AbortSignal) =>
  apiRequest<DeliveryDates>(`/api/delivery/dates?region=${encodeURIComponent(region)}&boxes=${boxes}${payment ? `&payment=${payment}` : ''}`, { signal });

export const postOrder = (input: PlaceOrderInput) => apiRequest<PlacedOrder>('/api/orders', { method: 'POST', body: input });

/** How long checkout keeps trying through a rush before it tells the shopper it could not. */
const rushPatienceMs = 2 * 60 * 1000;

/**
 * Places the order, and through a rush keeps the shopper's place: a 429 saying many people are
 * ordering is sent again with the same order key (never a second order), after a pause spread at
 * random so the waiting shoppers do not all come back at once.
 * `onWaiting` hears when it is waiting and when it stops.
 */
export async function postOrderThroughRush(input: PlaceOrderInput, onWaiting: (waiting: boolean) => void, sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))): Promise<PlacedOrder> {
  const started = Date.now();
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await postOrder(input);
      } catch (error) {
        const busy = error instanceof ApiError && error.status === 429 && error.body?.message === ordersBusyMessage;
        if (!busy || Date.now() - started > rushPatienceMs) throw error;
        onWaiting(true);
        await sleep(rushRetryPauseMs(attempt));
      }
    }
  } finally {
    onWaiting(false);
  }
}

export const fetchOrders = (signal?: AbortSignal) => apiRequest<OrderSummary[]>('/api/orders', { signal });

export const fetchOrder = (number: string, signal?: AbortSignal) => apiRequest<OrderView>(`/api/orders/${encodeURIComponent(number)}`, { signal });

export const cancelOrder = (number: string) => apiRequest<OrderView>(`/api/orders/${encodeURIComponent(number)}/cancel`, { method: 'POST' });

export const startCardPayment = (number: string) =>
  apiRequest<{ checkoutUrl: string }>(`/api/orders/${encodeURIComponent(number)}/pay`, { method: 'POST' });

/** A fresh key per checkout visit: a double click or a retried submit finds the same order. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
