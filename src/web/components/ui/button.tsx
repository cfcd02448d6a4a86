import type { ButtonHTMLAttributes } from 'react';

const variants = {
  primary: 'bg-mango-500 text-ink-900 hover:bg-mango-600',
  outline: 'border border-ink-900 bg-white text-ink-900 hover:bg-mango-50',
  ghost: 'text-ink-900 hover:bg-mango-50',
  /** Destructive actions: white on danger-600 is 4.8:1. */
  danger: 'bg-danger-600 text-white hover:bg-danger-600/90',
} as const;

/** DESIGN.md: text on mango-500 is ink-900 for contrast. */
export function Button({ variant = 'primary', className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof variants }) {
  return (
    <button
      type="button"
      {...props}
      className={`inline-flex items-center justify-center gap-2 rounded-full px-5 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${variants[variant]} ${className}`}
    />
  );
}
