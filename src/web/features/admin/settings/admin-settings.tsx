import { useQuery, useQueryClient } from '../../../lib/query';
import { setupKey } from '../dashboard/dashboard-setup';
import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { dayKeys, type StoredSettings, storedSettingsSchema } from '../../../../contracts/settings';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { settingsQueryKey } from '../../frame/use-settings';
import { ConfirmDialog } from '../shared/confirm-dialog';

export const adminSettingsKey = ['admin', 'settings'] as const;
export const fetchSettings = (signal?: AbortSignal) => apiRequest<StoredSettings>('/api/admin/settings', { signal });
const putSettings = (settings: StoredSettings) => apiRequest<StoredSettings>('/api/admin/settings', { method: 'PUT', body: settings });

const dayNames = { Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday', Sun: 'Sunday' } as const;

/** The settings as the form holds them: amounts and counts as typed, times empty when not shown. */
interface Draft extends Omit<StoredSettings, 'shippingCents' | 'unpaidOrderTimeoutDays' | 'lowStockThreshold' | 'bestBeforeWarningDays' | 'claimWindowHours' | 'reviewMailDays' | 'openingTime' | 'closingTime'> {
  shipping: string;
  unpaidOrderTimeoutDays: string;
  lowStockThreshold: string;
  bestBeforeWarningDays: string;
  claimWindowHours: string;
  reviewMailDays: string;
  openingTime: string;
  closingTime: string;
}

function draftOf(settings: StoredSettings): Draft {
  const { shippingCents, unpaidOrderTimeoutDays, lowStockThreshold, bestBeforeWarningDays, claimWindowHours, reviewMailDays, openingTime, closingTime, ...rest } = settings;
  return {
    ...rest,
    shipping: (shippingCents / 100).toFixed(2),
    unpaidOrderTimeoutDays: String(unpaidOrderTimeoutDays),
    lowStockThreshold: String(lowStockThreshold),
    bestBeforeWarningDays: String(bestBeforeWarningDays),
    claimWindowHours: String(claimWindowHours),
    reviewMailDays: String(reviewMailDays),
    openingTime: openingTime ?? '',
    closingTime: closingTime ?? '',
  };
}

const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** Dollars as typed to cents; more than 2 decimals stays fractional so the schema says so. */
function centsOf(text: string): number {
  const cents = numberOf(text) * 100;
  const rounded = Math.round(cents);
  return Math.abs(cents - rounded) < 1e-6 ? rounded : cents;
}

function settingsOf(draft: Draft): unknown {
  const { shipping, unpaidOrderTimeoutDays, lowStockThreshold, bestBeforeWarningDays, claimWindowHours, reviewMailDays, openingTime, closingTime, ...rest } = draft;
  return {
    ...rest,
    shippingCents: centsOf(shipping),
    unpaidOrderTimeoutDays: numberOf(unpaidOrderTimeoutDays),
    lowStockThreshold: numberOf(lowStockThreshold),
    bestBeforeWarningDays: numberOf(bestBeforeWarningDays),
    claimWindowHours: numberOf(claimWindowHours),
    reviewMailDays: numberOf(reviewMailDays),
    openingTime: openingTime || null,
    closingTime: closingTime || null,
  };
}

/** Issue 5: every setting of the shop in one form, checked by the shared schema; maintenance takes effect at once. */
export function AdminSettings() {
  const query = useQuery({ queryKey: adminSettingsKey, queryFn: ({ signal }) => fetchSettings(signal), refetchOnMount: 'always' });
  if (query.isPending) return <Spinner />;
  if (!query.data) {
    return (
      <p role="alert" className="text-danger-600">
        The settings could not be loaded.
      </p>
    );
  }
  return <SettingsForm saved={query.data} />;
}

function SettingsForm({ saved }: { saved: StoredSettings }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [confirmMaintenance, setConfirmMaintenance] = useState<StoredSettings | null>(null);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(saved));

  const patch = <K extends keyof Draft>(key: K, value: Partial<Draft[K]> | Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: typeof value === 'object' && value !== null ? { ...(current[key] as object), ...value } : value }));

  async function save(settings: StoredSettings) {
    setConfirmMaintenance(null);
    setBusy(true);
    try {
      const stored = await putSettings(settings);
      queryClient.setQueryData(adminSettingsKey, stored);
      setDraft(draftOf(stored));
      // The storefront reads the public settings: shipping, hours, maintenance and the rest change at once.
      await queryClient.invalidateQueries({ queryKey: settingsQueryKey });
      void queryClient.invalidateQueries({ queryKey: setupKey });
      toast({ title: 'Settings saved', description: stored.maintenance.enabled ? 'Maintenance is on: visitors see the maintenance page.' : undefined });
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      toast({ title: 'The settings were not saved', description: body?.message ?? 'Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = storedSettingsSchema.safeParse(settingsOf(draft));
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      toast({ title: 'Please check the highlighted fields', variant: 'destructive' });
      return;
    }
    setErrors({});
    // Switching maintenance on closes the shop to visitors at once: it asks first.
    if (parsed.data.maintenance.enabled && !saved.maintenance.enabled) setConfirmMaintenance(parsed.data);
    else void save(parsed.data);
  }

  const field = (label: string, error: string | undefined, value: string, onChange: (value: string) => void, extra: Record<string, unknown> = {}) => (
    <TextField label={label} value={value} error={error} onChange={(event) => onChange(event.target.value)} {...extra} />
  );

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-6">
      <h1 className="text-4xl font-semibold">Settings</h1>

      <Panel title="Maintenance">
        <label className="flex items-center gap-3 font-medium">
          <input
            type="checkbox"
            role="switch"
            className="size-5 accent-danger-600"
            checked={draft.maintenance.enabled}
            onChange={(event) => patch('maintenance', { enabled: event.target.checked })}
          />
          Maintenance mode (visitors and customers see the maintenance page; staff can still shop and sign in)
        </label>
        {saved.maintenance.enabled && (
          <p className="flex items-center gap-2 rounded-lg bg-mango-50 p-3 text-sm font-medium text-mango-700" role="status">
            <TriangleAlert className="size-4 shrink-0" aria-hidden="true" /> The shop is in maintenance now.
          </p>
        )}
        <TextAreaField
          label="Maintenance message"
          rows={2}
          maxLength={500}
          value={draft.maintenance.message}
          error={errors['maintenance.message']}
          onChange={(event) => patch('maintenance', { message: event.target.value })}
        />
      </Panel>

      <Panel title="Shop and contact" anchor="shop-and-contact">
        <div className="grid gap-4 sm:grid-cols-2">
          {field('Site name', errors.siteName, draft.siteName, (v) => patch('siteName', v), { maxLength: 80 })}
          {field('Contact e-mail', errors['contact.email'], draft.contact.email, (v) => patch('contact', { email: v }), { type: 'email', maxLength: 254 })}
          {field('Phone', errors['contact.phone'], draft.contact.phone, (v) => patch('contact', { phone: v }), { type: 'tel', maxLength: 30 })}
          {field('Address', errors['contact.address'], draft.contact.address, (v) => patch('contact', { address: v }), { maxLength: 200 })}
        </div>
      </Panel>

      <Panel title="Opening hours">
        <div className="grid gap-4 sm:grid-cols-2">
          {field('Opens at', errors.openingTime, draft.openingTime, (v) => patch('openingTime', v), { type: 'time' })}
          {field('Closes at', errors.closingTime, draft.closingTime, (v) => patch('closingTime', v), { type: 'time' })}
        </div>
        <p className="text-sm text-ink-500">Leave both empty to show "Check our store hours" in the footer.</p>
        <fieldset className="flex flex-wrap gap-x-5 gap-y-2">
          <legend className="mb-2 text-sm font-medium">Days open</legend>
          {dayKeys.map((day) => (
            <label key={day} className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="size-4 accent-mango-600" checked={draft.daysOpen[day]} onChange={(event) => patch('daysOpen', { [day]: event.target.checked })} />
              {dayNames[day]}
            </label>
          ))}
        </fieldset>
      </Panel>

      <Panel title="Social links">
        <div className="grid gap-4 sm:grid-cols-3">
          {field('Facebook', errors['socialMedia.facebook'], draft.socialMedia.facebook, (v) => patch('socialMedia', { facebook: v }), { type: 'url', placeholder: 'https://' })}
          {field('Instagram', errors['socialMedia.instagram'], draft.socialMedia.instagram, (v) => patch('socialMedia', { instagram: v }), { type: 'url', placeholder: 'https://' })}
          {field('WhatsApp', errors['socialMedia.whatsapp'], draft.socialMedia.whatsapp, (v) => patch('socialMedia', { whatsapp: v }), { type: 'url', placeholder: 'https://' })}
        </div>
      </Panel>

      <Panel title="Analytics">
        <div className="grid gap-4 sm:grid-cols-2">
          {field('GA4 measurement id', errors['analytics.gaTrackingId'], draft.analytics.gaTrackingId, (v) => patch('analytics', { gaTrackingId: v }), { placeholder: 'Starts with G-' })}
          {field('Meta pixel id', errors['analytics.metaPixelId'], draft.analytics.metaPixelId, (v) => patch('analytics', { metaPixelId: v }), { inputMode: 'numeric' })}
        </div>
        <p className="text-sm text-ink-500">Empty ids switch that tracking off. Check them on the Pixel test page.</p>
      </Panel>

      <Panel title="Tax and bank transfer" anchor="tax-and-bank">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            {field('GST number', errors.gstNumber, draft.gstNumber, (v) => patch('gstNumber', v), { placeholder: 'Nine digits, as IRD wrote it', 'aria-describedby': 'gst-help' })}
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="size-4 accent-mango-600" checked={draft.gstNotRegistered} onChange={(event) => patch('gstNotRegistered', event.target.checked)} />
              Not registered for GST
            </label>
            <p id="gst-help" className="text-xs text-ink-500">
              Without a GST number receipts charge no GST.
            </p>
          </div>
          {field('Bank', errors['bankTransfer.bankName'], draft.bankTransfer.bankName, (v) => patch('bankTransfer', { bankName: v }), { maxLength: 60 })}
          {field('Account name', errors['bankTransfer.accountName'], draft.bankTransfer.accountName, (v) => patch('bankTransfer', { accountName: v }), { maxLength: 100 })}
          {field('Account number', errors['bankTransfer.accountNumber'], draft.bankTransfer.accountNumber, (v) => patch('bankTransfer', { accountNumber: v }), { placeholder: 'Bank-branch-account-suffix' })}
          {field('Xero sales account code', errors.xeroSalesAccount, draft.xeroSalesAccount, (v) => patch('xeroSalesAccount', v), { maxLength: 10, placeholder: 'Your Xero sales code' })}
        </div>
        <p className="text-sm text-ink-500">
          Receipts show the GST number; bank-transfer orders show the account with the order number as reference. The Xero export (Reports) codes sales to the Xero account above.
        </p>
      </Panel>

      <Panel title="Orders and stock">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {field('Shipping per order (NZD)', errors.shippingCents, draft.shipping, (v) => patch('shipping', v), { inputMode: 'decimal' })}
          {field('Cancel unpaid orders after (days)', errors.unpaidOrderTimeoutDays, draft.unpaidOrderTimeoutDays, (v) => patch('unpaidOrderTimeoutDays', v), { inputMode: 'numeric' })}
          {field('Low stock at (boxes)', errors.lowStockThreshold, draft.lowStockThreshold, (v) => patch('lowStockThreshold', v), { inputMode: 'numeric' })}
          {field('Warn of best-before within (days)', errors.bestBeforeWarningDays, draft.bestBeforeWarningDays, (v) => patch('bestBeforeWarningDays', v), { inputMode: 'numeric' })}
          {field('Claims allowed for (hours after delivery)', errors.claimWindowHours, draft.claimWindowHours, (v) => patch('claimWindowHours', v), { inputMode: 'numeric' })}
          {field('Ask for a review after (days)', errors.reviewMailDays, draft.reviewMailDays, (v) => patch('reviewMailDays', v), { inputMode: 'numeric' })}
        </div>
        <p className="text-sm text-ink-500">Shoppers can report a problem with delivered mangoes (a freshness claim) for this many hours after the order is marked delivered.</p>
        <p className="text-sm text-ink-500">This many days after a delivered order's mangoes should be ready to eat, its shopper is e-mailed once to ask how they were, with a link to review them.</p>
      </Panel>

      {errors.form && (
        <p role="alert" className="text-danger-600">
          {errors.form}
        </p>
      )}
      <div className={`${dirty ? 'sticky bottom-4' : ''} flex justify-end`}>
        <Button type="submit" className="shadow-lg" disabled={busy || !dirty}>
          {busy ? 'Saving…' : dirty ? 'Save settings' : 'All changes saved'}
        </Button>
      </div>

      <ConfirmDialog
        open={confirmMaintenance !== null}
        title="Turn maintenance on?"
        description="Visitors and customers are sent to the maintenance page at once and cannot order until you turn it off. Staff can still use the shop."
        confirmLabel="Turn maintenance on"
        cancelLabel="Leave the shop open"
        busy={busy}
        onConfirm={() => confirmMaintenance && void save(confirmMaintenance)}
        onCancel={() => setConfirmMaintenance(null)}
      />
    </form>
  );
}
