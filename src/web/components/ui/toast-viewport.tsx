import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { Link } from 'react-router';
import { toastDurations } from '../../../contracts/shop-rules';
import { dismiss, shownToast } from './toast';

/** Spec 2: toasts show at the top on small screens and bottom right on larger ones (max 420 px). */
export default function ToastViewport() {
  const shown = shownToast.use();
  return (
    <ToastPrimitive.Provider swipeDirection="right">
      {shown && (
        <ToastPrimitive.Root
          key={shown.id}
          open={shown.open}
          duration={shown.duration ?? toastDurations.standard}
          onOpenChange={(open) => !open && dismiss(shown.id)}
          className={`group pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg ${
            shown.variant === 'destructive' ? 'border-danger-600 bg-danger-600 text-white' : 'border-mango-50 bg-white text-ink-900'
          }`}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{shown.title}</ToastPrimitive.Title>
            {shown.description && <ToastPrimitive.Description className="text-sm opacity-90">{shown.description}</ToastPrimitive.Description>}
            {shown.action && (
              <ToastPrimitive.Action asChild altText={shown.action.label}>
                <Link
                  to={shown.action.to}
                  onClick={() => dismiss(shown.id)}
                  className={`mt-1 justify-self-start rounded-full px-3 py-1 text-sm font-semibold underline-offset-2 hover:underline ${
                    shown.variant === 'destructive' ? 'bg-white text-danger-600' : 'bg-mango-500 text-ink-900'
                  }`}>
                  {shown.action.label}
                </Link>
              </ToastPrimitive.Action>
            )}
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
