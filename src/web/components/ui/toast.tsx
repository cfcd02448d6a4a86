import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { toastDurations } from '../../../contracts/shop-rules';

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
let current: ShownToast | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function toast(message: ToastMessage): void {
  current = { ...message, id: nextId++, open: true };
  emit();
}

function dismiss(id: number): void {
  if (current?.id !== id) return;
  current = { ...current, open: false };
  emit();
  setTimeout(() => {
    if (current?.id === id) {
      current = null;
      emit();
    }
  }, toastDurations.removeDelay);
}

function useCurrentToast(): ShownToast | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => null,
  );
}

/** Spec 2: toasts show at the top on small screens and bottom right on larger ones (max 420 px). */
export function Toaster() {
  const shown = useCurrentToast();
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
