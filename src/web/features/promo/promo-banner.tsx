import { useQuery } from '../../lib/query';
import { Copy, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ActivePromo } from '../../../contracts/content';
import { cacheTimes, toastDurations } from '../../../contracts/shop-rules';
import { toast } from '../../components/ui/toast';
import { apiRequest } from '../../lib/api-client';
import { useBrowserValue } from '../../lib/browser-value';
import { dismissPromo, isPromoDismissed } from './dismissed-promo';

export const activePromosQuery = { queryKey: ['promo-codes', 'active'] as const, path: '/api/promo-codes/active' };

/** Spec 2, 4 and 8: the first active promo, its code to copy, and a 24-hour dismissal. */
export function PromoBanner({ dismissedId }: { dismissedId: number | null }) {
  const promos = useQuery({ queryKey: activePromosQuery.queryKey, queryFn: () => apiRequest<ActivePromo[]>(activePromosQuery.path), staleTime: cacheTimes.pageContentMs });
  // First drawn as the server drew it (its cookie); then the browser's own record decides.
  const [hiddenId, setHiddenId] = useState<number | null>(dismissedId);
  const promo = promos.data?.[0];
  useEffect(() => {
    if (promos.error) console.warn('Could not load the active promo', promos.error);
  }, [promos.error]);
  // The browser's record (spec 3), read after hydration; the server never sees it.
  const dismissedHere = useBrowserValue(() => (promo ? isPromoDismissed(promo.id) : false), false);

  if (!promo || hiddenId === promo.id || dismissedHere) return null;

  async function copy(code: string) {
    try {
      await navigator.clipboard.writeText(code);
      toast({ title: 'Promo code copied!', description: `${code} copied to clipboard.`, duration: toastDurations.promoCopy });
    } catch {
      toast({ title: "Couldn't copy promo code", description: 'Please try again or copy it manually.', variant: 'destructive', duration: toastDurations.promoCopy });
    }
  }

  function dismiss(id: number) {
    dismissPromo(id);
    setHiddenId(id);
    toast({ title: 'Promo banner hidden', description: 'It will remain hidden for 24 hours' });
  }

  return (
    <aside aria-label="Current offer" className="relative bg-ink-900 text-cream-50">
      <div className="mx-auto flex max-w-[1200px] items-center justify-center gap-3 px-10 py-2 text-sm">
        <p>
          {promo.description} with code <strong className="font-semibold text-mango-500">{promo.code}</strong>
        </p>
        <button type="button" onClick={() => void copy(promo.code)} className="inline-flex items-center gap-1 rounded-full border border-cream-50/40 px-2.5 py-0.5 text-xs font-semibold hover:bg-cream-50/10">
          <Copy className="size-3.5" aria-hidden="true" /> Copy code
        </button>
        <button type="button" onClick={() => dismiss(promo.id)} aria-label="Hide this offer for 24 hours" className="absolute right-2 rounded-full p-1.5 hover:bg-cream-50/10">
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
    </aside>
  );
}
