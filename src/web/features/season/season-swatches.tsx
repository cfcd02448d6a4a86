/** DESIGN.md: peak cells are blush, available cells mango-50 with a border; the legend reuses them. */
export function PeakSwatch({ className = '' }: { className?: string }) {
  return <span aria-hidden="true" className={`block h-5 rounded-md bg-blush-500 ${className}`} />;
}

export function AvailableSwatch({ className = '' }: { className?: string }) {
  return <span aria-hidden="true" className={`block h-5 rounded-md border border-mango-500 bg-mango-50 ${className}`} />;
}
