import { Download } from 'lucide-react';
import { type ReactNode, useId } from 'react';

interface ReportSectionProps {
  title: string;
  /** Where the section's CSV downloads from. */
  csvUrl: string;
  className?: string;
  children: ReactNode;
}

/** A report card: its heading, a CSV download of the same figures, then the figures. */
export function ReportSection({ title, csvUrl, className = '', children }: ReportSectionProps) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`grid min-w-0 content-start gap-4 rounded-2xl bg-white p-4 sm:p-6 ${className}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-xl font-semibold sm:text-2xl">
          {title}
        </h2>
        <a
          href={csvUrl}
          download
          aria-label={`Download ${title.toLowerCase()} as CSV`}
          className="inline-flex items-center gap-2 rounded-full border border-ink-900 bg-white px-4 py-2 text-sm font-semibold hover:bg-mango-50">
          <Download className="size-4" aria-hidden="true" /> CSV
        </a>
      </div>
      {children}
    </section>
  );
}

/** What an empty report table says instead of showing no rows. */
export function ReportEmpty({ children }: { children: ReactNode }) {
  return <p className="rounded-xl bg-mango-50 px-4 py-3 text-sm text-ink-500">{children}</p>;
}
