import { Gift } from 'lucide-react';

/** Staff see a gift at a glance: it goes to someone else, with its message and no prices in the box. */
export function GiftBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-mango-500 px-2 py-0.5 text-xs font-semibold text-ink-900">
      <Gift className="size-3.5" aria-hidden="true" /> Gift
    </span>
  );
}
