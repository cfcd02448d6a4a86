import { keepPreviousData, useQuery } from '../../lib/query';
import { Store } from 'lucide-react';
import { hoursText, type PickupDates } from '../../../contracts/pickup';
import { Spinner } from '../../components/ui/spinner';
import type { CheckoutPaymentMethod } from '../../../contracts/order';
import { apiRequest } from '../../lib/api-client';
import { DayOption, useDropStaleDay } from './day-option';

export const pickupDatesKey = ['pickup-dates'] as const;

/** Whether the shop offers pickup, where, and its days for an order paid by `payment` (one request, shared by checkout's parts). */
export function usePickupDates(payment?: CheckoutPaymentMethod) {
  return useQuery({
    queryKey: [...pickupDatesKey, payment ?? ''],
    queryFn: ({ signal }) => apiRequest<PickupDates>(`/api/pickup/dates${payment ? `?payment=${payment}` : ''}`, { signal }),
    // Switching the payment keeps the last answer on screen while the next one comes.
    placeholderData: keepPreviousData,
    retry: false,
  });
}

interface PickupDayPickerProps {
  payment: CheckoutPaymentMethod | undefined;
  value: string | undefined;
  onChange: (date: string | undefined) => void;
  error?: string;
}

/** The days the shopper can collect from the shop, with the hours; full, closed and holiday days greyed out with the reason. */
export function PickupDayPicker({ payment, value, onChange, error }: PickupDayPickerProps) {
  const dates = usePickupDates(payment);
  const options = dates.data?.dates ?? [];
  useDropStaleDay(Boolean(dates.data), options, value, onChange);
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? 'pickup-date-error' : undefined} data-field="pickupDate" data-invalid={error ? 'true' : undefined}>
      <legend className="mb-1 flex items-center gap-2 text-lg font-semibold">
        <Store className="size-5 text-mango-600" aria-hidden="true" /> Pickup day
      </legend>
      {dates.isPending ? (
        <Spinner compact />
      ) : dates.isError ? (
        <p role="alert" className="text-sm text-danger-600">
          We could not load the pickup days. Please check your connection.
        </p>
      ) : !options.some((option) => option.state.available) ? (
        <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm">No pickup day is free in the coming weeks. Please choose delivery instead.</p>
      ) : (
        <>
          <p className="text-sm">
            Collect from <strong>{dates.data.address}</strong>. We e-mail you when your order is packed and ready.
          </p>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {options.map((option) => (
              <DayOption
                key={option.date}
                name="pickup-date"
                date={option.date}
                available={option.state.available}
                checked={value === option.date}
                note={option.state.available ? hoursText(option.hours) : option.state.reason}
                onChoose={onChange}
              />
            ))}
          </div>
        </>
      )}
      {error && (
        <p id="pickup-date-error" role="alert" className="text-sm text-danger-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
