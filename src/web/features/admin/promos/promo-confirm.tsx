import type { AdminPromoCode } from '../../../../contracts/promo-admin';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogDescription, DialogTitle } from '../../../components/ui/dialog';

/** What needs a second thought: switching a code off, or deleting it. */
export type PromoConfirmation = { kind: 'deactivate' | 'delete'; promo: AdminPromoCode };

interface PromoConfirmProps {
  confirming: PromoConfirmation | null;
  busy: boolean;
  onCancel: () => void;
  onDeactivate: (promo: AdminPromoCode) => void;
  onDelete: (promo: AdminPromoCode) => void;
}

function copyOf({ kind, promo }: PromoConfirmation): { title: string; explains: string } {
  if (kind === 'deactivate') {
    return { title: `Switch off ${promo.code}?`, explains: 'It disappears from the shop banner at once and checkout refuses it. You can switch it on again later.' };
  }
  if (promo.canDelete) return { title: `Delete ${promo.code}?`, explains: 'No order has used this code. Deleting it cannot be undone.' };
  return {
    title: `${promo.code} cannot be deleted`,
    explains: `It has been used on orders, which keep their code. ${promo.isActive ? 'Switch it off instead so nobody can use it again.' : 'It is already switched off, so nobody can use it.'}`,
  };
}

/** Every destructive step on a promo code asks first; a used code offers switching off instead. */
export function PromoConfirm({ confirming, busy, onCancel, onDeactivate, onDelete }: PromoConfirmProps) {
  const copy = confirming ? copyOf(confirming) : null;
  const promo = confirming?.promo;
  const switchOff = confirming && (confirming.kind === 'deactivate' || (!confirming.promo.canDelete && confirming.promo.isActive));
  const canDelete = confirming?.kind === 'delete' && confirming.promo.canDelete;
  return (
    <Dialog open={confirming !== null} onOpenChange={(open) => !open && onCancel()} title={copy?.title ?? 'Confirm'} titled>
      {copy && promo && (
        <div className="grid gap-4">
          <DialogTitle className="pr-8 text-2xl font-semibold">{copy.title}</DialogTitle>
          <DialogDescription className="text-ink-500">{copy.explains}</DialogDescription>
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="outline" onClick={onCancel}>
              {switchOff || canDelete ? 'Keep it' : 'Close'}
            </Button>
            {switchOff && (
              <Button disabled={busy} onClick={() => onDeactivate(promo)}>
                {busy ? 'Switching off...' : 'Switch off'}
              </Button>
            )}
            {canDelete && (
              <Button variant="danger" disabled={busy} onClick={() => onDelete(promo)}>
                {busy ? 'Deleting...' : 'Delete code'}
              </Button>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}
