import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogDescription, DialogTitle } from '../../../components/ui/dialog';

interface ConfirmDialogProps {
  open: boolean;
  /** What is about to happen, as a question: "Delete the page About Us?" */
  title: string;
  /** What it does and whether it can be undone. */
  description: ReactNode;
  confirmLabel: string;
  /** The safe choice; "Keep it" suits deleting, "Cancel" suits granting. */
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Every destructive admin action asks first; the safe choice is the focused one. */
export function ConfirmDialog({ open, title, description, confirmLabel, cancelLabel = 'Keep it', busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()} title={title} titled>
      <div className="grid gap-4">
        <DialogTitle className="pr-8 text-2xl font-semibold">{title}</DialogTitle>
        <DialogDescription className="text-ink-500">{description}</DialogDescription>
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="outline" onClick={onCancel} disabled={busy} autoFocus>
            {cancelLabel}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
