import { dayKeys } from '../../../../contracts/days';
import type { PickupSettings } from '../../../../contracts/pickup';
import { Panel } from '../../../components/ui/panel';
import { TextField } from '../../../components/ui/text-field';
import { ClosedDatesEditor } from './closed-dates-editor';
import type { FieldErrors } from '../../../lib/form-errors';

const dayNames = { Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday', Sun: 'Sunday' } as const;

interface PickupPanelProps {
  pickup: PickupSettings;
  onChange: (next: PickupSettings) => void;
  /** Orders per day as typed (checked when the form is saved). */
  ordersPerDay: string;
  onOrdersPerDay: (value: string) => void;
  errors: FieldErrors;
}

/** Click-and-collect: on or off, where, the hours of each weekday, orders per day and days with no pickup. */
export function PickupPanel({ pickup, onChange, ordersPerDay, onOrdersPerDay, errors }: PickupPanelProps) {
  const error = (key: string) => errors[`pickup.${key}`];
  const hourErrors = Object.entries(errors).filter(([key]) => key.startsWith('pickup.hours.'));
  return (
    <Panel title="Click and collect">
      <label className="flex items-center gap-3 font-medium">
        <input type="checkbox" role="switch" className="size-5 accent-mango-600" checked={pickup.enabled} onChange={(event) => onChange({ ...pickup, enabled: event.target.checked })} />
        Offer pickup from the shop at checkout
      </label>
      <p className="text-sm text-ink-500">
        A pickup order pays no delivery fee or rural surcharge and books a place on a pickup day. Public holidays where the shop packs, and the closed dates below and under
        Closed dates, have no pickup. Pre-orders and gifts always go by courier.
      </p>
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField label="Pickup address" maxLength={200} value={pickup.address} error={error('address')} onChange={(event) => onChange({ ...pickup, address: event.target.value })} />
        <TextField label="Pickups per day" inputMode="numeric" value={ordersPerDay} error={error('ordersPerDay')} onChange={(event) => onOrdersPerDay(event.target.value)} />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Pickup hours</legend>
        {dayKeys.map((day) => {
          const hours = pickup.hours[day];
          const setHours = (next: PickupSettings['hours'][typeof day]) => onChange({ ...pickup, hours: { ...pickup.hours, [day]: next } });
          return (
            <div key={day} className="grid gap-2 sm:grid-cols-[10rem_minmax(0,17rem)] sm:items-center sm:gap-3">
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" className="size-4 accent-mango-600" checked={hours !== null} onChange={(event) => setHours(event.target.checked ? { open: '10:00', close: '16:00' } : null)} />
                {dayNames[day]}
              </label>
              {hours ? (
                <div className="flex min-w-0 gap-2">
                  <input type="time" aria-label={`${dayNames[day]} opens`} value={hours.open} onChange={(event) => setHours({ ...hours, open: event.target.value })} className="w-full min-w-0 rounded-lg border border-ink-500/30 bg-white px-2 py-1.5" />
                  <input type="time" aria-label={`${dayNames[day]} closes`} value={hours.close} onChange={(event) => setHours({ ...hours, close: event.target.value })} className="w-full min-w-0 rounded-lg border border-ink-500/30 bg-white px-2 py-1.5" />
                </div>
              ) : (
                <span className="text-sm text-ink-500">No pickup</span>
              )}
            </div>
          );
        })}
        {hourErrors.length > 0 && (
          <p role="alert" className="text-sm text-danger-600">
            {hourErrors.map(([key, message]) => `${dayNames[key.split('.')[2] as keyof typeof dayNames] ?? ''}: ${message}`).join(' ')}
          </p>
        )}
      </fieldset>
      <div className="grid gap-2">
        <p className="text-sm font-medium">Days with no pickup</p>
        <ClosedDatesEditor
          rows={pickup.closedDates}
          onChange={(closedDates) => onChange({ ...pickup, closedDates })}
          error={error('closedDates')}
          words={{
            list: 'Days with no pickup',
            empty: 'None besides public holidays and the shop’s closed dates.',
            date: 'Day with no pickup',
            reason: 'Reason for pickup',
            add: 'No pickup that day',
            already: 'has no pickup already',
            remove: (date) => `Offer pickup on ${date} again`,
          }}
        />
      </div>
    </Panel>
  );
}
