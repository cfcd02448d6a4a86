import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

/** A modal that traps and restores focus, closes on Escape, backdrop or the close button. */
export function Dialog({ open, onOpenChange, title, description, children }: { open: boolean; onOpenChange: (open: boolean) => void; title: string; description?: string; children: ReactNode }) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink-900/50 backdrop-blur-sm" />
        <DialogPrimitive.Content className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-cream-50 p-6 shadow-xl">
          <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>
          {description ? <DialogPrimitive.Description className="sr-only">{description}</DialogPrimitive.Description> : <DialogPrimitive.Description />}
          {children}
          <DialogPrimitive.Close aria-label="Close" className="absolute right-3 top-3 rounded-full p-2 text-ink-500 hover:bg-mango-50 hover:text-ink-900">
            <X className="size-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
