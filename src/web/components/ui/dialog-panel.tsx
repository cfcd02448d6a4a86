import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, useRef } from 'react';

/** A dialog's visible title and description, for dialogs that show their own (`titled`). */
export const DialogTitle = DialogPrimitive.Title;
export const DialogDescription = DialogPrimitive.Description;

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Read by screen readers; with `titled` the children show a DialogTitle (and description) instead. */
  title: string;
  description?: string;
  titled?: boolean;
  wide?: boolean;
  /**
   * Focus the dialog itself on opening, not its first field: a quick look that should not open a
   * phone's keyboard over what it shows. Tab still moves into it, and Escape still closes it.
   */
  focusDialog?: boolean;
  children: ReactNode;
}

/** A modal that traps and restores focus, closes on Escape, backdrop or the close button. */
export default function DialogPanel({ open, onOpenChange, title, description, titled = false, wide = false, focusDialog = false, children }: DialogProps) {
  // Radix gives focus back only to its own Trigger; our dialogs open from many places, so the
  // element focused before opening is remembered and focused again on close.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink-900/50 backdrop-blur-sm" />
        <DialogPrimitive.Content
          onOpenAutoFocus={(event) => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            if (focusDialog && event.currentTarget instanceof HTMLElement) {
              event.preventDefault();
              event.currentTarget.focus({ preventScroll: true });
            }
          }}
          onCloseAutoFocus={(event) => {
            if (opener.current?.isConnected) {
              event.preventDefault();
              opener.current.focus();
            }
          }}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] ${wide ? 'max-w-3xl' : 'max-w-md'} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-cream-50 p-6 shadow-xl`}>
          {!titled && <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>}
          {!titled && (description ? <DialogPrimitive.Description className="sr-only">{description}</DialogPrimitive.Description> : <DialogPrimitive.Description />)}
          {children}
          <DialogPrimitive.Close aria-label="Close" className="absolute right-3 top-3 rounded-full p-2 text-ink-500 hover:bg-mango-50 hover:text-ink-900">
            <X className="size-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
