import { type QueryClient, type QueryKey, useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { EyeOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useListOrder } from './content-order-buttons';

interface OrderedListOptions<Item> {
  /** "Testimonial", "Banner": the toasts' subject. */
  noun: string;
  queryKey: QueryKey;
  fetch: (signal?: AbortSignal) => Promise<Item[]>;
  sendOrder: (ids: number[]) => Promise<Item[]>;
  /** Refetches the staff list and the storefront's copy. */
  refresh: (queryClient: QueryClient) => void;
  nameOf: (item: Item) => string;
  isShown: (item: Item) => boolean;
  setShown: (item: Item, shown: boolean) => Promise<Item>;
  remove: (item: Item) => Promise<unknown>;
}

/**
 * What the testimonial and banner lists share: the list in its storefront order, moving, showing or
 * hiding, and deleting (asked first), with the item being edited or deleted.
 */
export function useOrderedList<Item extends { id: number }>(options: OrderedListOptions<Item>) {
  const queryClient = useQueryClient();
  const { noun, nameOf } = options;
  const query = useQuery({ queryKey: options.queryKey, queryFn: ({ signal }) => options.fetch(signal) });
  const [editing, setEditing] = useState<Item | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  const refresh = () => options.refresh(queryClient);
  const order = useListOrder({ queryKey: options.queryKey, send: options.sendOrder, refresh, nameOf });
  const failed = (title: string) => (error: unknown) => toast({ title, description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
  const visibility = useMutation({
    mutationFn: (item: Item) => options.setShown(item, !options.isShown(item)),
    onSuccess(saved) {
      refresh();
      toast({ title: `${noun} ${options.isShown(saved) ? 'shown' : 'hidden'}`, description: nameOf(saved) });
    },
    onError: failed(`The ${noun.toLowerCase()} was not changed`),
  });
  const remove = useMutation({
    mutationFn: options.remove,
    onSuccess() {
      refresh();
      setDeleting(null);
      toast({ title: `${noun} deleted` });
    },
    onError: failed(`The ${noun.toLowerCase()} was not deleted`),
  });
  return { query, items: query.data ?? [], order, editing, setEditing, deleting, setDeleting, visibility, remove };
}

interface ItemActionsProps {
  /** How the item is read out: "the banner Hand-Picked at Peak Maturity". */
  label: string;
  shown: boolean;
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
}

/** Edit, Hide or Show, and Delete for one item of an ordered list. */
export function ItemActions({ label, shown, busy, onEdit, onToggle, onDelete }: ItemActionsProps) {
  return (
    <div className="flex flex-wrap gap-2 sm:justify-end">
      <Button variant="outline" className="px-3 py-1.5" onClick={onEdit} aria-label={`Edit ${label}`}>
        Edit
      </Button>
      <Button variant="outline" className="px-3 py-1.5" disabled={busy} onClick={onToggle} aria-label={`${shown ? 'Hide' : 'Show'} ${label}`}>
        {shown ? 'Hide' : 'Show'}
      </Button>
      <Button variant="ghost" className="px-3 py-1.5 text-danger-600!" onClick={onDelete} aria-label={`Delete ${label}`}>
        Delete
      </Button>
    </div>
  );
}

export function HiddenBadge() {
  return (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-mango-50 px-2 py-0.5 text-xs font-semibold ring-1 ring-ink-500/30">
      <EyeOff className="size-3.5" aria-hidden="true" /> Hidden
    </span>
  );
}
