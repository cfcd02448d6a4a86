import { useEffect, useState } from 'react';
import { shopRules } from '../../../contracts/shop-rules';
import { loadedWhenNear } from '../../lib/loaded-when-near';
import { useDeviceMonth, useRenderDay } from '../../lib/render-time';

/** The chart is below the first screen: its code loads as the shopper scrolls towards it (decision 0039). */
export const DeferredSeasonalChart = loadedWhenNear(() => import('./seasonal-chart').then((module) => module.SeasonalChart));

/**
 * Spec 2 and 4: the home page's mango calendar. The server draws it with New Zealand's month; the
 * device's month at load is the one shown, so where they differ the chart's code loads at once and
 * draws it again. The table appears 300 ms after load: this part is the page's own code, so the
 * reveal does not wait for the chart's.
 */
export function SeasonalChartSection({ headingId }: { headingId: string }) {
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setRevealed(true), shopRules.chartRevealDelayMs);
    return () => window.clearTimeout(timer);
  }, []);
  const serverMonth = Number(useRenderDay().slice(5, 7)) - 1;
  const deviceMonth = useDeviceMonth();
  return (
    <section aria-labelledby={headingId} className="group/chart min-w-0" data-revealed={revealed}>
      <DeferredSeasonalChart headingId={headingId} loadNow={deviceMonth !== serverMonth} />
    </section>
  );
}
