import { useQuery } from '../../lib/query';
import { CalendarDays } from 'lucide-react';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import type { CheckoutPaymentMethod } from '../../../contracts/order';
import { fetchDeliveryDates } from '../orders/orders-api';
import { DayOptionGrid, useDropStaleDay } from './day-option';

/** The dates offered to a region for `boxes` paid by `payment` (one request, shared by everything that asks). */
export function useDeliveryDates(region: string, boxes: number, payment: CheckoutPaymentMethod | undefined, enabled = true) {
  return useQuery({
    queryKey: ['delivery-dates', region, boxes, payment ?? ''],
    queryFn: ({ signal }) => fetchDeliveryDates(region, boxes, payment, signal),
    enabled: enabled && Boolean(region) && boxes > 0,
    retry: false,
  });
}

interface DeliveryDatePickerProps {
  region: string;
  boxes: number;
  payment: CheckoutPaymentMethod | undefined;
  value: string | undefined;
  onChange: (date: string | undefined) => void;
  error?: string;
}

/**
 * The next delivery days for the address's region, soonest first: full, closed and holiday days
 * stay in the list, greyed out with the reason, so the shopper sees why a day is missing.
 */
export function DeliveryDatePicker({ region, boxes, payment, value, onChange, error }: DeliveryDatePickerProps) {
  const dates = useDeliveryDates(region, boxes, payment);
  const options = dates.data?.region === region ? dates.data.dates : [];
  // A new region (or a day that filled up) drops a choice that no longer holds.
  useDropStaleDay(Boolean(dates.data), options, value, onChange);

  return (
    <fieldset className="grid gap-3" aria-describedby={error ? 'delivery-date-error' : undefined} data-field="deliveryDate" data-invalid={error ? 'true' : undefined}>
      <legend className="mb-1 flex items-center gap-2 text-lg font-semibold">
        <CalendarDays className="size-5 text-mango-600" aria-hidden="true" /> Delivery day
      </legend>
      {!region ? (
        <p className="text-sm text-ink-500">Choose your region above to see the days we deliver there.</p>
      ) : dates.isPending ? (
        <Spinner compact />
      ) : dates.isError ? (
        <p role="alert" className="text-sm text-danger-600">
          {dates.error instanceof ApiError ? (dates.error.body?.message ?? 'We could not load delivery days.') : 'We could not load delivery days. Please check your connection.'}
        </p>
      ) : options.length === 0 || !options.some((option) => option.state.available) ? (
        <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm">We have no delivery days for {region} in the coming weeks. Please contact us and we will arrange one.</p>
      ) : (
        <>
          <p className="text-sm text-ink-500">
            Fresh fruit never waits in a depot over a weekend or a holiday: pick the day it reaches you.
            {payment === 'bank_transfer' ? ' Paying by bank transfer leaves a day for your payment to reach us before we pack.' : ''}
          </p>
          <DayOptionGrid name="delivery-date" options={options} value={value} onChoose={onChange} />
        </>
      )}
      {error && (
        <p id="delivery-date-error" role="alert" className="text-sm text-danger-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
