import { type FormEvent, useState } from 'react';
import { type AdminOrderDetail, orderNoteSchema } from '../../../../contracts/admin-orders';
import { formatDateTime } from '../../../../contracts/dates';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/form-errors';
import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { postOrderNote, staffOrderKey } from '../shared/admin-api';

/** Staff's own notes on an order, oldest first; the customer never sees them. */
export function OrderNotes({ order }: { order: AdminOrderDetail }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: (note: string) => postOrderNote(order.number, note),
    onSuccess(next) {
      queryClient.setQueryData(staffOrderKey(order.number), next);
      setText('');
      toast({ title: 'Note added' });
    },
    onError(failure) {
      const body = failure instanceof ApiError ? failure.body : null;
      setError(body?.fieldErrors?.text);
      toast({ title: 'The note was not saved', description: body?.message ?? 'Please try again.', variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = orderNoteSchema.safeParse({ text });
    if (!parsed.success) return setError(fieldErrorsOf(parsed.error).text);
    setError(undefined);
    add.mutate(parsed.data.text);
  };
  return (
    <Panel title="Staff notes" level={3} className="gap-3">
      {order.notes.length === 0 ? (
        <p className="text-sm text-ink-500">None yet. Only staff see these.</p>
      ) : (
        <ul className="grid gap-2 text-sm">
          {order.notes.map((note) => (
            <li key={note.id} className="rounded-lg bg-cream-50 p-3">
              <p className="whitespace-pre-line break-words">{note.text}</p>
              <p className="mt-1 text-xs text-ink-500">
                {note.author ?? 'A former staff member'} · {formatDateTime(note.at)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} noValidate className="grid gap-2">
        <TextAreaField label="New note (staff only)" rows={2} maxLength={1000} value={text} error={error} onChange={(event) => setText(event.target.value)} />
        <div>
          <Button type="submit" variant="outline" disabled={add.isPending}>
            {add.isPending ? 'Saving…' : 'Add note'}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
