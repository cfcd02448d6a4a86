import { useEffect, useMemo, useState } from 'react';
import { shopRules } from '../../../contracts/shop-rules';
import { useDeviceMonth } from '../../lib/render-time';
import { useProducts } from '../catalog/use-products';
import { AvailabilityTable } from './availability-table';
import { InSeasonBanner } from './in-season-banner';
import { SeasonLegend } from './season-legend';
import { fullMonthName, monthKeyOf, varietiesAtPeak } from './season-calendar';
import { varieties } from './varieties';
import { productsOfVarieties } from './variety-products';

/**
 * Spec 2 and 4: the mango calendar. The current month is read from the device date once, at load;
 * the table appears 300 ms later (its space is kept so the page does not jump).
 */
export function SeasonalChart({ headingId = 'seasonal-chart' }: { headingId?: string }) {
  const monthIndex = useDeviceMonth();
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setRevealed(true), shopRules.chartRevealDelayMs);
    return () => window.clearTimeout(timer);
  }, []);

  const shop = useProducts().data;
  const products = useMemo(() => productsOfVarieties(varieties, shop ?? []), [shop]);
  const currentMonth = monthKeyOf(monthIndex);
  const tableTitleId = `${headingId}-table`;
  return (
    <div className="space-y-6">
      <div className="space-y-2 text-center">
        <h2 id={headingId} className="text-3xl font-semibold">Seasonal Availability Chart</h2>
        <p className="text-ink-500">Plan ahead with our mango calendar to get your favorites at peak season</p>
      </div>
      <InSeasonBanner monthName={fullMonthName(monthIndex)} atPeak={varietiesAtPeak(varieties, currentMonth)} />
      <div
        className={`space-y-4 transition-opacity duration-200 ${revealed ? 'opacity-100' : 'invisible opacity-0'}`}
        data-testid="availability-chart"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id={tableTitleId} className="text-xl font-semibold">Complete Availability Chart</h3>
          <SeasonLegend />
        </div>
        <AvailabilityTable varieties={varieties} currentMonth={currentMonth} titleId={tableTitleId} products={products} />
      </div>
    </div>
  );
}
