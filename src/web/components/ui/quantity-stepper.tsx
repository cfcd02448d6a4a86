import { Minus, Plus } from 'lucide-react';

/** Spec 5: quantity between 1 and the maximum; typed input is clamped and empty becomes 1. */
export function clampQuantity(value: number, max: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(Math.max(1, Math.floor(value)), Math.max(1, max));
}

export function QuantityStepper({ value, max, onChange, label, disabled = false }: { value: number; max: number; onChange: (next: number) => void; label: string; disabled?: boolean }) {
  const button = 'flex size-9 items-center justify-center rounded-full border border-ink-500/30 bg-white hover:bg-mango-50 disabled:opacity-40';
  return (
    <div className="inline-flex items-center gap-2" role="group" aria-label={label}>
      <button type="button" className={button} aria-label="Decrease quantity" disabled={disabled || value <= 1} onClick={() => onChange(value - 1)}>
        <Minus className="size-4" aria-hidden="true" />
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        value={value}
        disabled={disabled}
        aria-label="Quantity"
        onChange={(e) => onChange(clampQuantity(e.target.value === '' ? 1 : Number(e.target.value), max))}
        className="w-14 rounded-lg border border-ink-500/30 bg-white py-1.5 text-center tabular-nums [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none"
      />
      <button type="button" className={button} aria-label="Increase quantity" disabled={disabled || value >= max} onClick={() => onChange(value + 1)}>
        <Plus className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
