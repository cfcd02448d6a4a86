import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Search, X } from 'lucide-react';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { shopRules } from '../../../contracts/shop-rules';
import { formatPrice } from '../../lib/format';
import { useProductSearch } from './use-product-search';
import { ResponsiveImage } from '../../components/ui/responsive-image';

/** Spec 2, 5 and 9: product search with its three hints and keyboard navigation. */
export default function SearchDialogPanel({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  // Enter opens the result chosen with the arrow keys; without a choice it opens the results page.
  const [chosen, setChosen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const listId = useId();
  const { results, enabled, searching } = useProductSearch(term);
  const trimmed = term.trim();

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setTerm('');
  };
  const openProduct = (id: number) => {
    close(false);
    navigate(`/product/${id}`);
  };
  const openResults = () => {
    close(false);
    navigate(`/shop?search=${encodeURIComponent(trimmed)}`);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !(chosen && results?.length)) {
      if (trimmed.length >= shopRules.searchMinLength) openResults();
      event.preventDefault();
      return;
    }
    if (!results?.length) return;
    if (event.key === 'ArrowDown') setActive((i) => (i + 1) % results.length);
    else if (event.key === 'ArrowUp') setActive((i) => (i - 1 + results.length) % results.length);
    else if (event.key === 'Enter') openProduct(results[Math.min(active, results.length - 1)]!.id);
    else return;
    if (event.key !== 'Enter') setChosen(true);
    event.preventDefault();
  };

  const hint = !trimmed
    ? 'Enter a search term to find products.'
    : trimmed.length < shopRules.searchMinLength
      ? 'Please enter at least 3 characters to search.'
      : results && results.length === 0
        ? 'No products found. Try another search term.'
        : null;

  return (
    <DialogPrimitive.Root open={open} onOpenChange={close}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink-900/50 backdrop-blur-sm" />
        <DialogPrimitive.Content className="fixed left-1/2 top-[10vh] z-50 w-[calc(100%-2rem)] max-w-xl -translate-x-1/2 rounded-2xl bg-cream-50 p-4 shadow-xl">
          <DialogPrimitive.Title className="sr-only">Search products</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">Type at least 3 characters, then use the arrow keys and Enter to open a product.</DialogPrimitive.Description>
          <div className="flex items-center gap-2 rounded-xl border border-ink-500/30 bg-white px-3">
            <Search className="size-5 text-ink-500" aria-hidden="true" />
            <input
              autoFocus
              type="search"
              role="combobox"
              aria-label="Search products"
              aria-expanded={Boolean(results?.length)}
              aria-controls={listId}
              aria-activedescendant={results?.length ? `${listId}-${Math.min(active, results.length - 1)}` : undefined}
              value={term}
              ref={input}
              enterKeyHint="search"
              onChange={(e) => {
                setTerm(e.target.value);
                setActive(0);
                setChosen(false);
              }}
              onKeyDown={onKeyDown}
              placeholder="Search Alphonso, Kesar, organic..."
              className="w-full bg-transparent py-3 text-base outline-none [&::-webkit-search-cancel-button]:hidden"
            />
            {/* One button: it clears what was typed, and closes the search once there is nothing to clear. */}
            {term ? (
              <button
                type="button"
                aria-label="Clear search"
                className="rounded-full p-1.5 text-ink-500 hover:bg-mango-50"
                onClick={() => {
                  setTerm('');
                  setChosen(false);
                  input.current?.focus();
                }}>
                <X className="size-5" aria-hidden="true" />
              </button>
            ) : (
              <DialogPrimitive.Close aria-label="Close search" className="rounded-full p-1.5 text-ink-500 hover:bg-mango-50">
                <X className="size-5" aria-hidden="true" />
              </DialogPrimitive.Close>
            )}
          </div>
          <div className="mt-3 max-h-[300px] overflow-y-auto" aria-live="polite">
            {hint && <p className="px-2 py-4 text-center text-sm text-ink-500">{hint}</p>}
            {enabled && searching && !results && <p className="px-2 py-4 text-center text-sm text-ink-500">Searching...</p>}
            {results && results.length > 0 && (
              <ul id={listId} role="listbox" aria-label="Search results" className="grid gap-1">
                {results.map((product, index) => (
                  <li
                    key={product.id}
                    id={`${listId}-${index}`}
                    role="option"
                    aria-selected={index === active}
                    onMouseEnter={() => setActive(index)}
                    onClick={() => openProduct(product.id)}
                    className={`flex cursor-pointer items-center gap-3 rounded-xl p-2 ${index === active ? 'bg-mango-50' : ''}`}
                  >
                    <ResponsiveImage src={product.imageUrl} image={product.image} alt="" sizes="64px" box={{ width: 64, height: 48 }} loading="eager" className="h-12 w-16 rounded-lg object-cover" />
                    <div className="flex-1">
                      <p className="font-semibold">{product.name}</p>
                      <p className="text-sm text-ink-500">{product.category}</p>
                    </div>
                    <p className="font-semibold tabular-nums">{formatPrice(product.price)}</p>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
