import { type SelectHTMLAttributes, useId } from 'react';

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  options: readonly string[];
  /** What each option reads as, when not its value. */
  labels?: Readonly<Record<string, string>>;
  /** The first, empty choice ("Choose a region"). */
  placeholder?: string;
}

/** A labelled native select (the phone's own picker on mobile), with its error tied to it like TextField. */
export function SelectField({ label, error, options, labels, placeholder, className = '', ...props }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={`grid gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`w-full rounded-lg border bg-white px-3 py-2.5 text-base outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40 ${
          error ? 'border-danger-600' : 'border-ink-500/30'
        }`}
        {...props}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option} value={option}>
            {labels?.[option] ?? option}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger-600">
          {error}
        </p>
      )}
    </div>
  );
}
