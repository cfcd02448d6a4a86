import { Sun } from 'lucide-react';
import { peakCountText, type Variety } from './season-calendar';

interface InSeasonBannerProps {
  monthName: string;
  atPeak: readonly Variety[];
}

/** Spec 2: 'Currently in Season (month)' with the varieties at their peak and how many there are. */
export function InSeasonBanner({ monthName, atPeak }: InSeasonBannerProps) {
  return (
    <div className="rounded-2xl border border-mango-500/40 bg-mango-50 p-5 sm:p-6" data-testid="in-season-banner">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="flex items-center gap-2 text-xl font-semibold">
          <Sun aria-hidden="true" size={20} strokeWidth={1.5} className="text-mango-700" />
          Currently in Season ({monthName})
        </h3>
        <p className="text-sm font-medium text-ink-500">{peakCountText(atPeak.length)}</p>
      </div>
      {atPeak.length > 0 ? (
        <ul className="mt-4 flex flex-wrap gap-2" aria-label={`Varieties at their peak in ${monthName}`}>
          {atPeak.map((variety) => (
            <li key={variety.name} className="rounded-full bg-white px-3 py-1 text-sm font-medium shadow-sm ring-1 ring-blush-500/40">
              {variety.name}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-ink-500">No varieties are at their peak this month. Pre-order now for the new season.</p>
      )}
    </div>
  );
}
