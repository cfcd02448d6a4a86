import { useEffect } from 'react';
import { formatDay } from '../../../contracts/dates';
import type { DeliveryDayState } from '../../../contracts/delivery';

interface DayOptionProps {
  /** The radio group's name. */
  name: string;
  date: string;
  available: boolean;
  checked: boolean;
  /** Under the day: what it offers, or why it cannot be chosen. */
  note: string;
  onChoose: (date: string) => void;
}

/** One day checkout offers (for delivery or pickup): a radio card, greyed out with the reason when it cannot be chosen. */
export function DayOption({ name, date, available, checked, note, onChoose }: DayOptionProps) {
  return (
    <label
      className={`grid gap-0.5 rounded-xl border p-3 text-sm ${
        !available ? 'cursor-not-allowed border-ink-500/15 bg-ink-900/5 text-ink-500' : checked ? 'cursor-pointer border-mango-600 bg-mango-50' : 'cursor-pointer border-ink-500/30 hover:border-mango-600'
      }`}>
      <span className="flex items-center gap-2 font-semibold">
        <input type="radio" name={name} value={date} className="size-4 accent-mango-600" checked={checked} disabled={!available} onChange={() => onChoose(date)} />
        {formatDay(date)}
      </span>
      <span className={`pl-6 text-xs ${available ? 'text-leaf-700' : ''}`}>{note}</span>
    </label>
  );
}

/** The days on offer as a grid of radio cards, each available one noted so, the others with their reason. */
export function DayOptionGrid({ name, options, value, onChoose }: { name: string; options: ReadonlyArray<{ date: string; state: DeliveryDayState }>; value: string | undefined; onChoose: (date: string) => void }) {
  return (
    <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {options.map((option) => (
        <DayOption
          key={option.date}
          name={name}
          date={option.date}
          available={option.state.available}
          checked={value === option.date}
          note={option.state.available ? 'Available' : option.state.reason}
          onChoose={onChoose}
        />
      ))}
    </div>
  );
}

/**
 * Drops a chosen day that the latest offer no longer holds (another region, a day that filled up),
 * once the offer has loaded: the shopper chooses again rather than order on a day that is gone.
 */
export function useDropStaleDay(loaded: boolean, options: ReadonlyArray<{ date: string; state: DeliveryDayState }>, value: string | undefined, onChange: (date: string | undefined) => void) {
  const stillFree = options.some((option) => option.date === value && option.state.available);
  useEffect(() => {
    if (loaded && value && !stillFree) onChange(undefined);
  }, [loaded, value, stillFree, onChange]);
}
