import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { toastDurations } from '../../../contracts/shop-rules';
import { createExternalValue } from '../../lib/external-value';

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  duration?: number;
}

interface ShownToast extends ToastMessage {
  id: number;
  open: boolean;
}

/** Spec 9: one toast at a time; a new one replaces the one showing. */
const shownToast = createExternalValue<ShownToast | null>(null);
let nextId = 1;

export function toast(message: ToastMessage): void {
  shownToast.set({ ...message, id: nextId++, open: true });
}

function dismiss(id: number): void {
  const current = shownToast.get();
  if (current?.id !== id) return;
  shownToast.set({ ...current, open: false });
  setTimeout(() => {
    if (shownToast.get()?.id === id) shownToast.set(null);
  }, toastDurations.removeDelay);
}

/** Spec 2: toasts show at the top on small screens and bottom right on larger ones (max 420 px). */
export function Toaster() {
  const shown = shownToast.use();
  return (
    <ToastPrimitive.Provider swipeDirection="right">
      {shown && (
        <ToastPrimitive.Root
          key={shown.id}
          open={shown.open}
          duration={shown.duration ?? toastDurations.default}
          onOpenChange={(open) => !open && dismiss(shown.id)}
          className={`group pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg ${
            shown.variant === 'destructive' ? 'border-danger-600 bg-danger-600 text-white' : 'border-mango-50 bg-white text-ink-900'
          }`}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{shown.title}</ToastPrimitive.Title>
            {shown.description && <ToastPrimitive.Description className="text-sm opacity-90">{shown.description}</ToastPrimitive.Description>}
          </div>
          <ToastPrimitive.Close aria-label="Close" className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100">
            <X className="size-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="fixed top-0 z-[100] flex max-h-screen w-full flex-col p-4 sm:bottom-0 sm:right-0 sm:top-auto md:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
