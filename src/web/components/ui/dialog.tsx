import { lazy, Suspense } from 'react';
import type { DialogProps } from './dialog-panel';
import { useOpenedOnce } from './on-demand';

const DialogPanel = lazy(() => import('./dialog-panel'));

/** A dialog's visible title and description, for dialogs that show their own (`titled`). */
export const DialogTitle = lazy(() => import('./dialog-panel').then((module) => ({ default: module.DialogTitle })));
export const DialogDescription = lazy(() => import('./dialog-panel').then((module) => ({ default: module.DialogDescription })));

/** A modal that traps and restores focus, closes on Escape, backdrop or the close button; its code loads when first opened. */
export function Dialog(props: DialogProps) {
  const opened = useOpenedOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <DialogPanel {...props} />
    </Suspense>
  );
}
