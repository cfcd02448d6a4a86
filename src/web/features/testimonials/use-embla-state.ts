import type { EmblaCarouselType } from 'embla-carousel';
import { useCallback, useSyncExternalStore } from 'react';

/** Embla's selected slide and scroll limits, re-read whenever the carousel selects or re-initialises. */
export function useEmblaState(api: EmblaCarouselType | undefined) {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!api) return () => {};
      api.on('select', onChange).on('reInit', onChange);
      return () => {
        api.off('select', onChange).off('reInit', onChange);
      };
    },
    [api],
  );
  const selectedIndex = useSyncExternalStore(subscribe, () => api?.selectedScrollSnap() ?? 0, () => 0);
  const canScrollPrev = useSyncExternalStore(subscribe, () => api?.canScrollPrev() ?? false, () => false);
  const canScrollNext = useSyncExternalStore(subscribe, () => api?.canScrollNext() ?? false, () => false);
  return { selectedIndex, canScrollPrev, canScrollNext };
}
