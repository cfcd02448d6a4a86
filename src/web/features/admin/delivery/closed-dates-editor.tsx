import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formatDate, formatDay } from '../../../../contracts/dates';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';

export interface ClosedDate {
  date: string;
  reason: string;
}

interface ClosedDatesEditorProps {
  rows: ClosedDate[];
  onChange: (rows: ClosedDate[]) => void;
  /** The list's accessible name, what it says when empty, and the words of its fields and buttons. */
  words: { list: string; empty: string; date: string; reason: string; add: string; already: string; remove: (date: string) => string };
  /** The server's message for the list, if any. */
  error?: string;
}

/** Dates closed with the reason shoppers read: the list, a remove button on each, and a form to add one. */
export function ClosedDatesEditor({ rows, onChange, words, error }: ClosedDatesEditorProps) {
  const [closing, setClosing] = useState({ date: '', reason: '' });
  const [problem, setProblem] = useState<string | null>(null);
  function add() {
    if (!closing.date || !closing.reason.trim()) return setProblem('Give the date and the reason shoppers will see');
    if (rows.some((row) => row.date === closing.date)) return setProblem(`${formatDate(closing.date)} ${words.already}`);
    onChange([...rows, { date: closing.date, reason: closing.reason.trim() }].sort((a, b) => a.date.localeCompare(b.date)));
    setClosing({ date: '', reason: '' });
    setProblem(null);
  }
  const shown = problem ?? error;
  return (
    <>
      {rows.length === 0 ? (
        <p className="text-sm text-ink-500">{words.empty}</p>
      ) : (
        <ul className="divide-y divide-mango-50 text-sm" aria-label={words.list}>
          {rows.map((row) => (
            <li key={row.date} className="flex items-center justify-between gap-3 py-2">
              <span>
                <span className="font-medium">{formatDay(row.date)}</span> · {row.reason}
              </span>
              <button type="button" aria-label={words.remove(formatDate(row.date))} className="rounded-full p-2 hover:bg-mango-50" onClick={() => onChange(rows.filter((one) => one.date !== row.date))}>
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
        <TextField label={words.date} type="date" value={closing.date} onChange={(event) => setClosing((now) => ({ ...now, date: event.target.value }))} />
        <TextField label={words.reason} maxLength={120} value={closing.reason} onChange={(event) => setClosing((now) => ({ ...now, reason: event.target.value }))} />
        <Button type="button" variant="outline" onClick={add}>
          {words.add}
        </Button>
      </div>
      {shown && (
        <p role="alert" className="text-sm text-danger-600">
          {shown}
        </p>
      )}
    </>
  );
}
