import { Pencil, Trash2 } from 'lucide-react';
import { type AdminPromoCode, type PromoState, promoStateLabels } from '../../../../contracts/promo-admin';
import { formatDate, formatPrice } from '../../../lib/format';

export interface PromoActions {
  onEdit: (promo: AdminPromoCode) => void;
  onToggle: (promo: AdminPromoCode) => void;
  onDelete: (promo: AdminPromoCode) => void;
  busyId: number | null;
}

const stateStyles: Record<PromoState, string> = {
  live: 'bg-white text-leaf-700 ring-leaf-700/50',
  scheduled: 'bg-mango-50 text-mango-700 ring-mango-600/40',
  expired: 'bg-ink-500/10 text-ink-500 ring-ink-500/30',
  used_up: 'bg-ink-500/10 text-ink-500 ring-ink-500/30',
  off: 'bg-white text-ink-500 ring-ink-500/30',
};

function StateBadge({ state }: { state: PromoState }) {
  return <span className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${stateStyles[state]}`}>{promoStateLabels[state]}</span>;
}

export const discountText = (promo: AdminPromoCode) => (promo.discountType === 'percentage' ? `${promo.discountValue}% off` : `${formatPrice(promo.discountValue)} off`);

function windowText(promo: AdminPromoCode): string {
  if (promo.startsAt && promo.endsAt) return `${formatDate(promo.startsAt)} to ${formatDate(promo.endsAt)}`;
  if (promo.startsAt) return `From ${formatDate(promo.startsAt)}`;
  if (promo.endsAt) return `Until ${formatDate(promo.endsAt)}`;
  return 'Any time';
}

function usesText(promo: AdminPromoCode): string {
  const total = promo.maxUses === null ? `${promo.usedCount} used` : `${promo.usedCount} of ${promo.maxUses} used`;
  return promo.maxUsesPerCustomer === null ? total : `${total}, ${promo.maxUsesPerCustomer} per customer`;
}

const ordersText = (promo: AdminPromoCode) => `${promo.orderCount} order${promo.orderCount === 1 ? '' : 's'} · ${formatPrice(promo.discountGiven)} off`;

/** On or off at a click; switching off asks first (the screen holds the confirmation). */
function ActiveSwitch({ promo, busy, onToggle }: { promo: AdminPromoCode; busy: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={promo.isActive}
      aria-label={`${promo.code} active`}
      disabled={busy}
      onClick={onToggle}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-60 ${promo.isActive ? 'bg-leaf-700' : 'bg-ink-500/40'}`}>
      <span className={`inline-block size-5 rounded-full bg-white shadow transition-transform motion-reduce:transition-none ${promo.isActive ? 'translate-x-5.5' : 'translate-x-0.5'}`} />
    </button>
  );
}

function RowButtons({ promo, actions }: { promo: AdminPromoCode; actions: PromoActions }) {
  const icon = 'inline-flex size-9 items-center justify-center rounded-full hover:bg-mango-50';
  return (
    <div className="flex items-center justify-end gap-1">
      <button type="button" className={icon} aria-label={`Edit ${promo.code}`} title="Edit" onClick={() => actions.onEdit(promo)}>
        <Pencil className="size-5" strokeWidth={1.5} aria-hidden="true" />
      </button>
      <button
        type="button"
        className={`${icon} text-danger-600`}
        aria-label={`Delete ${promo.code}`}
        title="Delete"
        onClick={() => actions.onDelete(promo)}>
        <Trash2 className="size-5" strokeWidth={1.5} aria-hidden="true" />
      </button>
    </div>
  );
}

/** Promo codes as a table from tablet width, as cards on a phone. */
export function PromoList({ promos, actions }: { promos: AdminPromoCode[]; actions: PromoActions }) {
  return (
    <>
      <div className="hidden overflow-x-auto rounded-2xl bg-white p-4 md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Promo codes, newest first</caption>
          <thead>
            <tr className="border-b border-ink-500/30">
              <th scope="col" className="py-2 pr-3 font-semibold">Code</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Discount</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Dates</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Uses</th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">Revenue</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Active</th>
              <th scope="col" className="py-2 font-semibold"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {promos.map((promo) => (
              <tr key={promo.id} className="border-b border-mango-50 align-top">
                <th scope="row" className="py-3 pr-3 font-normal">
                  <span className="font-mono font-semibold tracking-wide">{promo.code}</span>
                  <span className="block max-w-56 text-ink-500">{promo.description}</span>
                </th>
                <td className="py-3 pr-3">
                  {discountText(promo)}
                  {promo.minimumOrder !== null && <span className="block text-ink-500">Orders over {formatPrice(promo.minimumOrder)}</span>}
                </td>
                <td className="py-3 pr-3">{windowText(promo)}</td>
                <td className="py-3 pr-3 tabular-nums">{usesText(promo)}</td>
                <td className="py-3 pr-3 text-right tabular-nums">
                  <span className="font-semibold">{formatPrice(promo.revenue)}</span>
                  <span className="block whitespace-nowrap text-ink-500">{ordersText(promo)}</span>
                </td>
                <td className="py-3 pr-3">
                  <div className="grid justify-items-start gap-1.5">
                    <ActiveSwitch promo={promo} busy={actions.busyId === promo.id} onToggle={() => actions.onToggle(promo)} />
                    <StateBadge state={promo.state} />
                  </div>
                </td>
                <td className="py-2">
                  <RowButtons promo={promo} actions={actions} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="grid gap-3 md:hidden" aria-label="Promo codes, newest first">
        {promos.map((promo) => (
          <li key={promo.id} className="grid gap-2 rounded-2xl bg-white p-4 text-sm">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-mono text-base font-semibold tracking-wide break-all">{promo.code}</p>
                <p className="text-ink-500">{promo.description}</p>
              </div>
              <ActiveSwitch promo={promo} busy={actions.busyId === promo.id} onToggle={() => actions.onToggle(promo)} />
            </div>
            <p>
              <StateBadge state={promo.state} /> {discountText(promo)}
              {promo.minimumOrder !== null && ` on orders over ${formatPrice(promo.minimumOrder)}`}
            </p>
            <p className="text-ink-500">
              {windowText(promo)} · {usesText(promo)}
            </p>
            <div className="flex items-end justify-between gap-3">
              <p>
                <span className="font-semibold tabular-nums">{formatPrice(promo.revenue)}</span> revenue
                <span className="block text-ink-500">{ordersText(promo)}</span>
              </p>
              <RowButtons promo={promo} actions={actions} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
