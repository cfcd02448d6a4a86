import { PeakSwatch, AvailableSwatch } from './season-swatches';

/** Spec 2: the chart's legend names the two styled states, Available and Peak Season. */
export function SeasonLegend() {
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-ink-500" aria-label="Legend">
      <li className="flex items-center gap-2">
        <AvailableSwatch className="w-6" />
        Available
      </li>
      <li className="flex items-center gap-2">
        <PeakSwatch className="w-6" />
        Peak Season
      </li>
    </ul>
  );
}
