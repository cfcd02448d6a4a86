/** Spec 2: pages load lazily with a 'Loading...' spinner meanwhile. */
export function Spinner({ label = 'Loading...', compact = false }: { label?: string; compact?: boolean }) {
  return (
    <div role="status" aria-live="polite" className={`flex ${compact ? 'min-h-40' : 'min-h-[40vh]'} flex-col items-center justify-center gap-3 text-ink-500`}>
      <span className="size-10 animate-spin rounded-full border-4 border-mango-50 border-t-mango-500" aria-hidden="true" />
      <span className="text-sm">{label}</span>
    </div>
  );
}
