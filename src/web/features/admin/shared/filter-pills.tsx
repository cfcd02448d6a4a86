interface FilterPillsProps<T extends string> {
  /** What the row chooses, for a screen reader: "Claim status". */
  label: string;
  options: readonly T[];
  labels: Record<T, string>;
  chosen: T;
  /** How many each option holds, or null while it is not known. */
  countOf?: (option: T) => number | null;
  onChoose: (option: T) => void;
}

/** A list's filters as a row of pressed-or-not buttons, each with its count when the list has one. */
export function FilterPills<T extends string>({ label, options, labels, chosen, countOf, onChoose }: FilterPillsProps<T>) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-2">
      {options.map((option) => {
        const count = countOf?.(option) ?? null;
        return (
          <button
            key={option}
            type="button"
            aria-pressed={chosen === option}
            onClick={() => onChoose(option)}
            className={`rounded-full px-4 py-2 text-sm font-semibold ring-1 ${chosen === option ? 'bg-mango-500 text-ink-900 ring-mango-600' : 'bg-white ring-ink-500/30 hover:bg-mango-50'}`}>
            {labels[option]}
            {count !== null && <span className="ml-1.5 tabular-nums text-ink-700">{count}</span>}
          </button>
        );
      })}
    </nav>
  );
}
