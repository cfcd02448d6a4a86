import { CalendarDays } from 'lucide-react';
import { addDays, nzToday } from '../../../contracts/dates';
import type { DeliveryDayOption, DeliveryDayState } from '../../../contracts/delivery';
import { type SubscriptionInterval, weekdayNames } from '../../../contracts/subscriptions';
import { weekdayOf } from '../../../contracts/days';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { useBrowserValue } from '../../lib/browser-value';
import { useRenderDay, useRenderTime } from '../../lib/render-time';
import { DayOptionGrid, useDropStaleDay } from '../checkout/day-option';
import { useDeliveryDates } from '../checkout/delivery-date-picker';

interface FirstDeliveryPickerProps {
  region: string;
  boxes: number;
  every: SubscriptionInterval;
  /** No box comes after the season's end: later days are not offered. */
  seasonEndsOn: string | null;
  /** Days the server refused as a first box during this visit. */
  refused: ReadonlySet<string>;
  value: string | undefined;
  onChange: (date: string | undefined) => void;
  error?: string;
}

/**
 * A season box's cut-off is the day before its dispatch day (docs/season-box.md), a day earlier
 * than checkout's: a day packed tomorrow or sooner is offered to checkout, not as a first box.
 */
function firstBoxState(option: DeliveryDayOption, today: string, refused: ReadonlySet<string>): DeliveryDayState {
  if (!option.state.available) return option.state;
  if (addDays(option.dispatchDate, -1) < today) return { available: false, reason: 'Too soon for a season box' };
  if (refused.has(option.date)) return { available: false, reason: 'Not available for a season box' };
  return option.state;
}

/** The first box's day, from the days the region is delivered on: its weekday is the box's day from then on. */
export function FirstDeliveryPicker({ region, boxes, every, seasonEndsOn, refused, value, onChange, error }: FirstDeliveryPickerProps) {
  const dates = useDeliveryDates(region, boxes, 'bank_transfer');
  const renderedAt = useRenderTime();
  const today = useBrowserValue(() => nzToday(renderedAt + performance.now()), useRenderDay());
  const options = (dates.data?.region === region ? dates.data.dates : [])
    .filter((option) => seasonEndsOn === null || option.date <= seasonEndsOn)
    .map((option) => ({ date: option.date, state: firstBoxState(option, today, refused) }));
  useDropStaleDay(Boolean(dates.data), options, value, onChange);
  const weekday = value ? weekdayNames[weekdayOf(value)] : null;

  return (
    <fieldset className="grid gap-3" aria-describedby={error ? 'first-delivery-error' : undefined} data-field="firstDeliveryDate" data-invalid={error ? 'true' : undefined}>
      <legend className="mb-1 flex items-center gap-2 text-lg font-semibold">
        <CalendarDays className="size-5 text-mango-600" aria-hidden="true" /> First delivery
      </legend>
      {!region ? (
        <p className="text-sm text-ink-500">Choose your region above to see the days we deliver there.</p>
      ) : dates.isPending ? (
        <Spinner compact label="Loading delivery days..." />
      ) : dates.isError ? (
        <p role="alert" className="text-sm text-danger-600">
          {errorMessage(dates.error, 'We could not load delivery days. Please check your connection.')}
        </p>
      ) : !options.some((option) => option.state.available) ? (
        <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm">We have no delivery days for a season box to {region} in the coming weeks. Please contact us and we will arrange one.</p>
      ) : (
        <>
          <p className="text-sm text-ink-500">The day your first box arrives. Its weekday is your delivery day from then on.</p>
          <DayOptionGrid name="first-delivery-date" options={options} value={value} onChoose={onChange} />
        </>
      )}
      <div aria-live="polite" className="empty:hidden">
        {weekday && <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm font-semibold">Your box comes every {every === 'fortnight' ? `second ${weekday}` : weekday}</p>}
      </div>
      {error && (
        <p id="first-delivery-error" role="alert" className="text-sm text-danger-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
