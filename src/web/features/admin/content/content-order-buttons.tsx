import { type QueryKey, useQueryClient } from '../../../lib/query';
import { isMutating, useMutation } from '../../../lib/query/mutation';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';

interface OrderButtonsProps {
  /** How the item is read out: "Move Priya S., Auckland up". */
  name: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
}

const buttonClass =
  'flex size-9 items-center justify-center rounded-full border border-ink-500/30 bg-white hover:bg-mango-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-white';

/**
 * Up and down instead of dragging, so the keyboard and screen readers can order too. At the ends a
 * button is aria-disabled rather than disabled, so the focus stays on it after the last move.
 */
export function OrderButtons({ name, index, count, onMove }: OrderButtonsProps) {
  const isFirst = index === 0;
  const isLast = index === count - 1;
  return (
    <div className="flex gap-1" role="group" aria-label={`Order of ${name}`}>
      <button type="button" className={buttonClass} aria-label={`Move ${name} up`} aria-disabled={isFirst || undefined} onClick={() => !isFirst && onMove(index, index - 1)}>
        <ArrowUp className="size-4" aria-hidden="true" />
      </button>
      <button type="button" className={buttonClass} aria-label={`Move ${name} down`} aria-disabled={isLast || undefined} onClick={() => !isLast && onMove(index, index + 1)}>
        <ArrowDown className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

interface ListOrderOptions<Item> {
  queryKey: QueryKey;
  send: (ids: number[]) => Promise<Item[]>;
  /** Refetches what else shows the list (the storefront's copy). */
  refresh: () => void;
  nameOf: (item: Item) => string;
}

/**
 * Moves an item at once on screen and saves the whole new order in one request; when the server
 * refuses (someone else changed the list), the list is loaded again and the move is undone.
 */
export function useListOrder<Item extends { id: number }>({ queryKey, send, refresh, nameOf }: ListOrderOptions<Item>) {
  const queryClient = useQueryClient();
  const [announcement, setAnnouncement] = useState('');
  const mutationKey = [...queryKey, 'order'];
  const save = useMutation({
    mutationKey,
    mutationFn: send,
    // Moves are saved one after another, in the order they were made.
    scope: { id: JSON.stringify(mutationKey) },
    // The screen already shows the order sent; while a later move waits its turn, nothing is reloaded over it.
    onSuccess() {
      if (isMutating(queryClient, { mutationKey }) <= 1) refresh();
    },
    onError(error) {
      void queryClient.invalidateQueries({ queryKey });
      const message = error instanceof ApiError ? error.body?.message : undefined;
      toast({ title: 'The new order was not saved', description: message, variant: 'destructive' });
    },
  });
  const move = (items: Item[], from: number, to: number) => {
    const next = [...items];
    const [moved] = next.splice(from, 1);
    if (!moved) return;
    next.splice(to, 0, moved);
    queryClient.setQueryData(queryKey, next);
    setAnnouncement(`${nameOf(moved)} moved to position ${to + 1} of ${next.length}.`);
    save.mutate(next.map((item) => item.id));
  };
  return { move, announcement, saving: save.isPending };
}

/** Read out after each move, so a screen-reader user hears where the item went. */
export function OrderAnnouncement({ text }: { text: string }) {
  return (
    <p role="status" aria-live="polite" className="sr-only">
      {text}
    </p>
  );
}
