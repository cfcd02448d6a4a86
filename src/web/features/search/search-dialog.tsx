import { lazy, Suspense } from 'react';
import { useOpenedOnce } from '../../components/ui/on-demand';

const SearchDialogPanel = lazy(() => import('./search-dialog-panel'));

/** Spec 2's product search; its code loads when it is first opened. */
export function SearchDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  if (!useOpenedOnce(open)) return null;
  return (
    <Suspense fallback={null}>
      <SearchDialogPanel open={open} onOpenChange={onOpenChange} />
    </Suspense>
  );
}
