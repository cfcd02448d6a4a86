import { useEffect, useRef } from 'react';
import type { Product } from '../../../contracts/product';
import { monthKeys, monthStatus, type MonthKey, type Variety } from './season-calendar';
import { AvailableSwatch, PeakSwatch } from './season-swatches';
import { VarietyName } from './variety-name';

interface AvailabilityTableProps {
  varieties: readonly Variety[];
  currentMonth: MonthKey;
  titleId: string;
  /** The shop's product of each variety it sells (by variety name). */
  products: ReadonlyMap<string, Product>;
}

const statusText = { peak: 'Peak Season', available: 'Available', none: '' } as const;

/**
 * Spec 2: one row per variety, one column per month, the current month highlighted and the row
 * under the pointer highlighted. The variety column stays put while the months scroll on phones.
 */
export function AvailabilityTable({ varieties, currentMonth, titleId, products }: AvailabilityTableProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const columnTint = (month: MonthKey) => (month === currentMonth ? 'bg-mango-500/15' : '');

  // On a phone only a few months fit beside the names, so start with the current month in view.
  useEffect(() => {
    const scroller = scrollerRef.current;
    const current = scroller?.querySelector<HTMLElement>('th[data-current-month]');
    const names = scroller?.querySelector<HTMLElement>('thead th');
    if (!scroller || !current || !names) return;
    const hiddenBy = current.offsetLeft + current.offsetWidth - scroller.clientWidth;
    if (hiddenBy > 0) scroller.scrollLeft = Math.min(current.offsetLeft - names.offsetWidth, hiddenBy + current.offsetWidth);
  }, [currentMonth]);

  return (
    <div ref={scrollerRef} className="relative overflow-x-auto rounded-2xl border border-mango-50 bg-white" role="region" aria-labelledby={titleId} tabIndex={0}>
      <table className="w-full min-w-[44rem] table-fixed border-collapse text-sm" aria-labelledby={titleId}>
        <thead>
          <tr className="border-b border-mango-50">
            <th scope="col" className="sticky left-0 z-10 w-36 bg-white px-4 py-3 text-left font-semibold sm:w-44">
              Variety
            </th>
            {monthKeys.map((month) => (
              <th
                key={month}
                scope="col"
                data-current-month={month === currentMonth ? 'true' : undefined}
                className={`px-1 py-3 text-center font-semibold ${month === currentMonth ? 'bg-mango-500 text-ink-900' : 'text-ink-500'}`}
              >
                {month}
                {month === currentMonth && <span className="sr-only"> (current month)</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {varieties.map((variety) => (
            <tr key={variety.name} className="group border-b border-mango-50 last:border-b-0 hover:bg-mango-50">
              <th scope="row" className="sticky left-0 z-10 whitespace-nowrap bg-white px-4 py-2 text-left font-medium group-hover:bg-mango-50">
                <VarietyName name={variety.name} product={products.get(variety.name)} />
              </th>
              {monthKeys.map((month) => {
                const status = monthStatus(variety, month);
                return (
                  <td key={month} data-month={month} data-status={status} className={`px-1 py-2 ${columnTint(month)}`}>
                    {status === 'peak' && <PeakSwatch />}
                    {status === 'available' && <AvailableSwatch />}
                    {status !== 'none' && <span className="sr-only">{statusText[status]}</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
