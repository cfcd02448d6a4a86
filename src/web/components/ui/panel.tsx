import { type ReactNode, useId } from 'react';

interface PanelProps {
  title: string;
  /** h2 for a page's sections, h3 inside one. */
  level?: 2 | 3;
  className?: string;
  /** An anchor to link to the section (/admin/settings#tax-and-bank). */
  anchor?: string;
  children: ReactNode;
}

/** A white card section named by its heading (screen readers list it as a region). */
export function Panel({ title, level = 2, className = '', anchor, children }: PanelProps) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section id={anchor} aria-labelledby={id} className={`grid scroll-mt-24 gap-4 rounded-2xl bg-white p-5 sm:p-6 ${className}`}>
      <Heading id={id} className={`${level === 2 ? 'text-2xl' : 'text-xl'} font-semibold`}>
        {title}
      </Heading>
      {children}
    </section>
  );
}
