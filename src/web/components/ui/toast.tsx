import { lazy, Suspense } from 'react';
import { toastDurations } from '../../../contracts/shop-rules';
import { createExternalValue } from '../../lib/external-value';
import { useOpenedOnce } from './on-demand';

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  duration?: number;
  /** A link that acts on the message ("Sign in"): an address inside the shop. */
  action?: { label: string; to: string };
}

export interface ShownToast extends ToastMessage {
  id: number;
  open: boolean;
}

/** Spec 9: one toast at a time; a new one replaces the one showing. */
export const shownToast = createExternalValue<ShownToast | null>(null);
let nextId = 1;

export function toast(message: ToastMessage): void {
  shownToast.set({ ...message, id: nextId++, open: true });
}

export function dismiss(id: number): void {
  const current = shownToast.get();
  if (current?.id !== id) return;
  shownToast.set({ ...current, open: false });
  setTimeout(() => {
    if (shownToast.get()?.id === id) shownToast.set(null);
  }, toastDurations.removeDelay);
}

const ToastViewport = lazy(() => import('./toast-viewport'));

/** The toasts' place on the page; its code (Radix) loads with the first toast, not with every page. */
export function Toaster() {
  const shown = shownToast.use();
  if (!useOpenedOnce(shown !== null)) return null;
  return (
    <Suspense fallback={null}>
      <ToastViewport />
    </Suspense>
  );
}
