import type { EmblaCarouselType, EmblaOptionsType } from 'embla-carousel';
import { useCallback, useEffect, useRef, useState } from 'react';

/** How far below the screen the carousel may be when its code starts to load. */
const nearScreen = '600px 0px';

/**
 * Embla on a carousel far down the page: its code (the biggest part of the home page's) loads when
 * the carousel comes near the screen, not with the first view. The server draws the first slides
 * in place; a dot pressed before the code has arrived loads it and is carried out once it has, so
 * no press is lost (the arrows are disabled until then). Code that fails to load is asked for
 * again at the next press.
 */
export function useLazyEmbla(options: EmblaOptionsType) {
  const [viewport, setViewport] = useState<HTMLElement | null>(null);
  const [api, setApi] = useState<EmblaCarouselType>();
  const [wanted, setWanted] = useState(false);
  const pending = useRef<((api: EmblaCarouselType) => void) | undefined>(undefined);
  // The carousel as soon as it exists, before React has drawn with it.
  const made = useRef<EmblaCarouselType | undefined>(undefined);
  // The options of the first render: the carousel is made once.
  const [initialOptions] = useState(options);

  useEffect(() => {
    if (!viewport || wanted) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setWanted(true);
    }, { rootMargin: nearScreen });
    observer.observe(viewport);
    return () => observer.disconnect();
  }, [viewport, wanted]);

  useEffect(() => {
    if (!viewport || !wanted) return;
    let carousel: EmblaCarouselType | undefined;
    let cancelled = false;
    import('embla-carousel').then(
      ({ default: EmblaCarousel }) => {
        if (cancelled) return;
        carousel = EmblaCarousel(viewport, initialOptions);
        made.current = carousel;
        setApi(carousel);
        const action = pending.current;
        pending.current = undefined;
        action?.(carousel);
      },
      (error: unknown) => {
        if (cancelled) return;
        console.warn('Mango Shop: the carousel could not load; a press tries again', error);
        pending.current = undefined;
        setWanted(false);
      },
    );
    return () => {
      cancelled = true;
      carousel?.destroy();
      made.current = undefined;
      setApi(undefined);
    };
  }, [viewport, wanted, initialOptions]);

  /** Runs `action` on the carousel now, or as soon as its code has loaded. */
  const withCarousel = useCallback((action: (api: EmblaCarouselType) => void) => {
    if (made.current) return action(made.current);
    pending.current = action;
    setWanted(true);
  }, []);

  return { viewportRef: setViewport, api, withCarousel };
}
