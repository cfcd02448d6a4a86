import { ShieldCheck } from 'lucide-react';

/** Marks a staff account wherever customers are listed. */
export function CustomerAdminBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-leaf-700 font-sans px-2.5 py-0.5 text-xs font-semibold text-white">
      <ShieldCheck className="size-3.5" aria-hidden="true" /> Admin
    </span>
  );
}
