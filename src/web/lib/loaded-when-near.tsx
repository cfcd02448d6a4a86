import { type ComponentType, lazy, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { toast } from '../components/ui/toast';
import type { Carried, Held } from './carry-over';

/**
 * A section made by loadedWhenNear; `preload` fetches its code (a route's loader can wait for it).
 * `loadNow` loads it at once wherever it is: the browser knows something the server's HTML does not show.
 */
export type NearSection<P> = ComponentType<P & { loadNow?: boolean }> & { preload(): Promise<unknown> };

/**
 * A section below the fold whose code loads when the shopper comes near it (decision 0039).
 *
 * The server draws the section in full. On the first page the browser keeps the server's HTML as
 * it is (a `dangerouslySetInnerHTML` React leaves alone while hydrating), so the section needs no
 * code to be seen, and context changes above it cannot throw it away. When it comes within
 * `nearPx` of the screen, or the shopper points at it, focuses it or presses in it, its code loads
 * and React draws it afresh in place: the same HTML, now working. What the shopper did in the
 * server's HTML meanwhile is carried over (carry-over.ts): text typed, boxes ticked, focus, and
 * the last press on a control, held and then done again. Pages reached later in the browser draw
 * the section at once if its code is here, or as soon as it arrives.
 */
export function loadedWhenNear<P extends object>(load: () => Promise<ComponentType<P>>, className?: string): NearSection<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // Asked again on the next approach or press.
        loading = undefined;
        throw error;
      },
    ));
  // The server waits for the code before it sends the page: there is no Suspense boundary above.
  const OnServer = lazy(async () => ({ default: await start() }));
  if (import.meta.env.SSR) start().catch((error: unknown) => console.error('Could not load a section of the page', error));

  function Section({ loadNow = false, ...rest }: P & { loadNow?: boolean }) {
    // The section's own props, without loadNow.
    const props = rest as P;
    const [shown, setShown] = useState(() => firstPageHydrated && loaded !== undefined);
    const staticRef = useRef<HTMLDivElement>(null);
    const liveRef = useRef<HTMLDivElement>(null);
    const carried = useRef<{ from: Carried; into: (container: Element, from: Carried) => void } | null>(null);

    useEffect(() => {
      const container = staticRef.current;
      if (shown || !container) return;
      let held: Held | null = null;
      let cancelled = false;
      let asking = false;
      const show = () => {
        if (asking) return;
        asking = true;
        Promise.all([start(), import('./carry-over')]).then(
          ([, { carry, carryInto }]) => {
            if (cancelled) return;
            carried.current = { from: carry(container, held), into: carryInto };
            // Drawn now, in this task: nothing the shopper does can fall between reading and drawing.
            flushSync(() => setShown(true));
          },
          (error: unknown) => {
            console.warn('Could not load a section of the page', error);
            asking = false;
            if (cancelled) return;
            // Without its code the section stays as the server drew it, and its code is asked for
            // again on the next approach or press. A held link still goes, as a full page load;
            // another held press is dropped, and the shopper is told why.
            const pressed = held?.target;
            held = null;
            if (pressed instanceof HTMLAnchorElement) window.location.assign(pressed.href);
            else if (pressed) toast({ title: 'This part of the page could not load', description: 'Please check your connection and reload the page.', variant: 'destructive' });
          },
        );
      };
      const hold = (event: Event) => {
        if (event instanceof MouseEvent && (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)) return;
        const target = event.type === 'submit' ? event.target : event.target instanceof Element ? event.target.closest(pressable) : null;
        if (!(target instanceof Element) || !container.contains(target) || leavesThePage(target)) return;
        event.preventDefault();
        event.stopPropagation();
        // A second press before the code arrives replaces the first: a double click subscribes once.
        held = { kind: event.type === 'submit' ? 'submit' : 'click', target };
        show();
      };
      // Without server HTML (a page reached in the browser, or a first page React had to draw
      // afresh) there is nothing to keep: the section loads at once.
      const near = firstPageHydrated || !container.hasChildNodes() ? null : new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && show(), { rootMargin: `${nearPx}px 0px` });
      container.addEventListener('click', hold, true);
      container.addEventListener('submit', hold, true);
      container.addEventListener('pointerover', show, { passive: true });
      container.addEventListener('focusin', show);
      if (near && !loadNow) near.observe(container);
      else show();
      return () => {
        cancelled = true;
        near?.disconnect();
        container.removeEventListener('click', hold, true);
        container.removeEventListener('submit', hold, true);
        container.removeEventListener('pointerover', show);
        container.removeEventListener('focusin', show);
      };
    }, [shown, loadNow]);

    useLayoutEffect(() => {
      const carry = carried.current;
      const container = liveRef.current;
      if (!shown || !carry || !container) return;
      carried.current = null;
      // After the commit, before the page is painted: React handles the carried input as typing.
      queueMicrotask(() => carry.into(container, carry.from));
    }, [shown]);

    if (import.meta.env.SSR) {
      return (
        <div className={className}>
          <OnServer {...props} />
        </div>
      );
    }
    if (!shown || !loaded) return <div key="static" ref={staticRef} className={className} dangerouslySetInnerHTML={serverHtml} suppressHydrationWarning />;
    const Loaded = loaded;
    return (
      <div key="live" ref={liveRef} className={className}>
        <Loaded {...props} />
      </div>
    );
  }
  Section.displayName = 'LoadedWhenNear';
  return Object.assign(Section, { preload: start });
}

/** How far from the screen (px) a section starts loading: a flick of the thumb ahead. */
const nearPx = 300;

/** What a press on is held until the code arrives: controls, not text. */
const pressable = 'a[href], button, input, select, textarea, label, summary, [role="button"], [role="link"], [role="tab"]';

/** Links that need no code: to another site or tab, or to the phone or mail app. They go at once. */
function leavesThePage(target: Element): boolean {
  if (!(target instanceof HTMLAnchorElement)) return false;
  return (target.target !== '' && target.target !== '_self') || target.hasAttribute('download') || target.origin !== window.location.origin;
}

/** Hydrating this keeps the element's children as the server sent them (one object, so an update never writes it). */
const serverHtml = { __html: '' };

let firstPageHydrated = false;

/** The first page has hydrated: sections drawn from now on have no server HTML to keep. */
export function markFirstPageHydrated(): void {
  firstPageHydrated = true;
}
