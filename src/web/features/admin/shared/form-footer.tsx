import { Button } from '../../../components/ui/button';

interface FormFooterProps {
  busy: boolean;
  /** The submit button: "Add banner", "Save banner"... */
  submitLabel: string;
  onBack: () => void;
  /** A submit that cannot be undone (cancelling orders) is drawn as such. */
  danger?: boolean;
}

/** An admin form's way back and its submit button, busy while it saves. */
export function FormFooter({ busy, submitLabel, onBack, danger = false }: FormFooterProps) {
  return (
    <div className="flex flex-wrap justify-end gap-3">
      <Button variant="outline" onClick={onBack}>
        Back
      </Button>
      <Button type="submit" variant={danger ? 'danger' : undefined} disabled={busy}>
        {busy ? 'Saving...' : submitLabel}
      </Button>
    </div>
  );
}

/** "Show on the storefront", offered when something is added (the list shows or hides it later). */
export function ShowOnStorefront({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm font-medium">
      <input type="checkbox" className="size-4 accent-mango-600" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      Show on the storefront
    </label>
  );
}
