import { useMemo } from 'react';
import { useDeviceMonth } from '../../lib/render-time';
import { useProducts } from '../catalog/use-products';
import { AvailabilityTable } from './availability-table';
import { InSeasonBanner } from './in-season-banner';
import { SeasonLegend } from './season-legend';
import { fullMonthName, monthKeyOf, varietiesAtPeak } from './season-calendar';
import { varieties } from './varieties';
import { productsOfVarieties } from './variety-products';

/**
 * Spec 2 and 4: the mango calendar. The current month is read from the device date once, at load.
 * Its table stays hidden until an ancestor with the class `group/chart` says `data-revealed="true"`
 * (seasonal-chart-section.tsx does, 300 ms after load): place it only inside one. Its space is
 * kept meanwhile so the page does not jump.
 */
export function SeasonalChart({ headingId = 'seasonal-chart' }: { headingId?: string }) {
  const monthIndex = useDeviceMonth();

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
        className="invisible space-y-4 opacity-0 transition-opacity duration-200 group-data-[revealed=true]/chart:visible group-data-[revealed=true]/chart:opacity-100"
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
