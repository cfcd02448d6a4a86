import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { formatDate, formatDay } from '../../../../contracts/dates';
import { dayKeys } from '../../../../contracts/days';
import { type DeliveryDayOption, type DeliverySettings, deliverySettingsSchema } from '../../../../contracts/delivery';
import { type NzRegion, nzRegions } from '../../../../contracts/order';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { apiRequest, ApiError, errorMessage } from '../../../lib/api-client';
import { PickupPanel } from './pickup-panel';
import { ClosedDatesEditor } from './closed-dates-editor';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';

const settingsKey = ['admin', 'delivery'] as const;
const fetchDelivery = (signal?: AbortSignal) => apiRequest<DeliverySettings>('/api/admin/delivery', { signal });
const saveDelivery = (settings: DeliverySettings) => apiRequest<DeliverySettings>('/api/admin/delivery', { method: 'PUT', body: settings });
const fetchDates = (region: NzRegion, signal?: AbortSignal) => apiRequest<{ dates: DeliveryDayOption[] }>(`/api/delivery/dates?region=${encodeURIComponent(region)}`, { signal });

const fieldClass = 'rounded-lg border border-ink-500/30 bg-white px-3 py-2 text-base outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40';

/** Issue 13: which days the shop delivers where, the cut-off, packing capacity, closed dates and the rural surcharge. */
export function AdminDelivery() {
  const query = useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => fetchDelivery(signal), retry: false });
  if (query.isPending) return <Spinner />;
  if (!query.data)
    return (
      <p role="alert" className="rounded-2xl bg-white p-6 text-danger-600">
        {errorMessage(query.error, 'The delivery settings could not be loaded.')}
      </p>
    );
  return <DeliveryForm saved={query.data} />;
}

function DeliveryForm({ saved }: { saved: DeliverySettings }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(saved);
  const [boxesPerDay, setBoxesPerDay] = useState(String(saved.boxesPerDay));
  const [surcharge, setSurcharge] = useState((saved.ruralSurchargeCents / 100).toFixed(2));
  const [pickupOrders, setPickupOrders] = useState(String(saved.pickup.ordersPerDay));
  const [override, setOverride] = useState({ date: '', boxes: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: saveDelivery,
    onSuccess(next) {
      queryClient.setQueryData(settingsKey, next);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'delivery-dates'] });
      setDraft(next);
      setErrors({});
      toast({ title: 'Delivery settings saved', description: 'The next delivery dates follow them at once.' });
    },
    onError(error) {
      setErrors((error instanceof ApiError ? error.body?.fieldErrors : undefined) ?? {});
      toast({ title: 'Not saved', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    },
  });

  const setRegion = (region: NzRegion, next: Partial<DeliverySettings['regions'][NzRegion]>) =>
    setDraft((now) => ({ ...now, regions: { ...now.regions, [region]: { ...now.regions[region], ...next } } }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = Math.round(Number(surcharge) * 100);
    const parsed = deliverySettingsSchema.safeParse({
      ...draft,
      boxesPerDay: boxesPerDay.trim() === '' ? Number.NaN : Number(boxesPerDay),
      ruralSurchargeCents: surcharge.trim() === '' ? Number.NaN : Math.abs(Number(surcharge) * 100 - cents) < 1e-6 ? cents : Number(surcharge) * 100,
      pickup: { ...draft.pickup, ordersPerDay: pickupOrders.trim() === '' ? Number.NaN : Number(pickupOrders) },
    });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    save.mutate(parsed.data);
  }

  function addOverride() {
    const boxes = Number(override.boxes);
    if (!override.date || override.boxes.trim() === '' || !Number.isInteger(boxes) || boxes < 0) return setErrors({ capacityOverrides: 'Give the date and a whole number of boxes' });
    setDraft((now) => ({
      ...now,
      capacityOverrides: [...now.capacityOverrides.filter((row) => row.date !== override.date), { date: override.date, boxes }].sort((a, b) => a.date.localeCompare(b.date)),
    }));
    setOverride({ date: '', boxes: '' });
    setErrors({});
  }

  const listError = (key: string) =>
    errors[key] ? (
      <p role="alert" className="text-sm text-danger-600">
        {errors[key]}
      </p>
    ) : null;
  const regionErrors = Object.entries(errors).filter(([key]) => key.startsWith('regions.'));

  return (
    <form className="grid grid-cols-1 gap-6" onSubmit={submit} noValidate>
      <div className="grid gap-1">
        <h1 className="text-4xl font-semibold">Delivery</h1>
        <p className="text-ink-500">The days the shop delivers to each region. Public holidays, national and each region&apos;s anniversary day, are left out on their own.</p>
      </div>

      <Panel title="Delivery days by region">
        <p className="text-sm text-ink-500">
          Tick the weekdays a courier delivers there. Lead time is the days from packing to the door; fruit never waits in a depot over a weekend, so a day that would need it is not offered.
        </p>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[40rem] text-sm">
            <caption className="sr-only">Delivery weekdays and lead time per region</caption>
            <thead>
              <tr className="text-left text-ink-500">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Region
                </th>
                {dayKeys.map((day) => (
                  <th key={day} scope="col" className="px-1 py-2 text-center font-medium">
                    {day}
                  </th>
                ))}
                <th scope="col" className="py-2 pl-3 font-medium">
                  Lead time
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-mango-50">
              {nzRegions.map((region) => (
                <tr key={region}>
                  <th scope="row" className="py-2 pr-3 text-left font-medium">
                    {region}
                  </th>
                  {dayKeys.map((day) => (
                    <td key={day} className="px-1 py-2 text-center">
                      <input
                        type="checkbox"
                        className="size-5 accent-mango-600"
                        aria-label={`${region}: deliver on ${day}`}
                        checked={draft.regions[region].days.includes(day)}
                        onChange={(event) =>
                          setRegion(region, { days: event.target.checked ? dayKeys.filter((key) => key === day || draft.regions[region].days.includes(key)) : draft.regions[region].days.filter((key) => key !== day) })
                        }
                      />
                    </td>
                  ))}
                  <td className="py-2 pl-3">
                    <select aria-label={`${region}: lead time`} className={fieldClass} value={draft.regions[region].leadDays} onChange={(event) => setRegion(region, { leadDays: Number(event.target.value) })}>
                      {[1, 2, 3, 4, 5].map((days) => (
                        <option key={days} value={days}>
                          {days === 1 ? 'Next day' : `${days} days`}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {regionErrors.map(([key, message]) => (
          <p key={key} role="alert" className="text-sm text-danger-600">
            {key.split('.')[1]}: {message}
          </p>
        ))}
      </Panel>

      <Panel title="Packing">
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="Cut-off for packing the same day (NZ time)" type="time" value={draft.cutoffTime} error={errors.cutoffTime} onChange={(event) => setDraft((now) => ({ ...now, cutoffTime: event.target.value }))} />
          <TextField label="Boxes packed per day" inputMode="numeric" value={boxesPerDay} error={errors.boxesPerDay} onChange={(event) => setBoxesPerDay(event.target.value)} />
          <TextField label="Rural delivery surcharge (NZD, GST incl.)" inputMode="decimal" value={surcharge} error={errors.ruralSurchargeCents} onChange={(event) => setSurcharge(event.target.value)} />
        </div>
      </Panel>

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Panel title="Closed dates">
          <p className="text-sm text-ink-500">Nothing is packed or delivered on a closed date: checkout greys out that date, and any date whose boxes would be packed on it, with the reason.</p>
          <ClosedDatesEditor
            rows={draft.closedDates}
            onChange={(closedDates) => setDraft((now) => ({ ...now, closedDates }))}
            error={errors.closedDates}
            words={{ list: 'Closed dates', empty: 'No dates closed.', date: 'Date to close', reason: 'Reason', add: 'Close date', already: 'is closed already', remove: (date) => `Open ${date} again` }}
          />
        </Panel>

        <Panel title="Packing capacity by date">
          <p className="text-sm text-ink-500">A date that packs more or fewer boxes than usual (0 packs none).</p>
          {draft.capacityOverrides.length === 0 ? (
            <p className="text-sm text-ink-500">Every day packs {boxesPerDay || '…'} boxes.</p>
          ) : (
            <ul className="divide-y divide-mango-50 text-sm" aria-label="Capacity by date">
              {draft.capacityOverrides.map((row) => (
                <li key={row.date} className="flex items-center justify-between gap-3 py-2">
                  <span>
                    <span className="font-medium">{formatDay(row.date)}</span> · {row.boxes} boxes
                  </span>
                  <button type="button" aria-label={`Use the usual capacity on ${formatDate(row.date)}`} className="rounded-full p-2 hover:bg-mango-50" onClick={() => setDraft((now) => ({ ...now, capacityOverrides: now.capacityOverrides.filter((one) => one.date !== row.date) }))}>
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
            <TextField label="Packing date" type="date" value={override.date} onChange={(event) => setOverride((now) => ({ ...now, date: event.target.value }))} />
            <TextField label="Boxes that day" inputMode="numeric" value={override.boxes} onChange={(event) => setOverride((now) => ({ ...now, boxes: event.target.value }))} />
            <Button type="button" variant="outline" onClick={addOverride}>
              Set capacity
            </Button>
          </div>
          {listError('capacityOverrides')}
        </Panel>
      </div>

      <PickupPanel pickup={draft.pickup} onChange={(pickup) => setDraft((now) => ({ ...now, pickup }))} ordersPerDay={pickupOrders} onOrdersPerDay={setPickupOrders} errors={errors} />

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save delivery settings'}
        </Button>
        <p className="text-sm text-ink-500">Closed dates and capacity take effect when saved.</p>
      </div>

      <NextDates />
    </form>
  );
}

/** A region's next delivery dates as saved, with why a date is greyed out: a check on the settings. */
function NextDates() {
  const id = useId();
  const [region, setRegion] = useState<NzRegion>('Auckland');
  const query = useQuery({ queryKey: ['admin', 'delivery-dates', region], queryFn: ({ signal }) => fetchDates(region, signal) });
  return (
    <Panel title="Next delivery dates">
      <div className="grid max-w-xs gap-1.5 text-sm font-medium">
        <label htmlFor={id}>Region</label>
        <select id={id} className={fieldClass} value={region} onChange={(event) => setRegion(event.target.value as NzRegion)}>
          {nzRegions.map((one) => (
            <option key={one}>{one}</option>
          ))}
        </select>
      </div>
      {query.isPending ? (
        <Spinner compact />
      ) : !query.data ? (
        <p className="text-danger-600">The dates could not be loaded.</p>
      ) : query.data.dates.length === 0 ? (
        <p className="text-ink-500">No delivery to {region}: tick its weekdays above.</p>
      ) : (
        <ul className="grid gap-1 text-sm sm:grid-cols-2" aria-label={`Delivery dates for ${region}`}>
          {query.data.dates.map((one) => (
            <li key={one.date} className={one.state.available ? '' : 'text-ink-500'}>
              <span className="font-medium">{formatDay(one.date)}</span> (packed {formatDay(one.dispatchDate)}){one.state.available ? '' : ` · ${one.state.reason}`}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
