import { useState } from 'react';
import type { AuditEntryView } from '../../../../contracts/reports';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../../contracts/dates';
import { useAuditLog } from '../shared/reports-api';

const pageSize = 10;

function Snapshot({ label, value }: { label: string; value: unknown }) {
  return (
    <div className="grid min-w-0 gap-1">
      <span className="font-semibold">{label}</span>
      <pre tabIndex={0} className="max-h-64 overflow-auto rounded-lg bg-cream-50 p-3 text-xs">{value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}

function AuditItem({ entry }: { entry: AuditEntryView }) {
  const hasChanges = entry.before !== null || entry.after !== null;
  return (
    <li className="grid gap-1 py-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span>
          <span className="font-semibold">{entry.actor?.name || entry.actor?.email || 'System'}</span>{' '}
          <code className="rounded bg-mango-50 px-1.5 py-0.5 text-mango-700">{entry.action}</code>{' '}
          <span className="whitespace-nowrap text-ink-500">
            on {entry.entity}
            {entry.entityId !== null && ` ${entry.entityId}`}
          </span>
        </span>
        <time dateTime={entry.at} className="text-ink-500">
          {formatDateTime(entry.at)}
        </time>
      </div>
      {hasChanges && (
        <details>
          <summary className="cursor-pointer text-mango-700">Before and after</summary>
          <div className="grid gap-2 pt-2 md:grid-cols-2">
            <Snapshot label="Before" value={entry.before} />
            <Snapshot label="After" value={entry.after} />
          </div>
        </details>
      )}
    </li>
  );
}

/** The audit log, newest first, a page at a time: who changed what, when, and what it was before. */
export function DashboardAudit() {
  const [page, setPage] = useState(1);
  const query = useAuditLog(page, pageSize);
  if (query.isPending) return <Spinner compact />;
  if (query.isError) return <p role="alert" className="text-danger-600">The audit log could not be loaded.</p>;
  const { entries, total } = query.data;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (entries.length === 0) return <p className="text-ink-500">No changes recorded yet.</p>;
  return (
    <div className={`grid gap-2 ${query.isPlaceholderData ? 'opacity-60' : ''}`}>
      <ul className="divide-y divide-mango-50">
        {entries.map((entry) => (
          <AuditItem key={entry.id} entry={entry} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <p>
          {total} change{total === 1 ? '' : 's'} · page {query.data.page} of {pages}
        </p>
        <div className="flex gap-2">
          <Button variant="outline" disabled={page <= 1} onClick={() => setPage((current) => current - 1)}>
            Newer
          </Button>
          <Button variant="outline" disabled={page >= pages} onClick={() => setPage((current) => current + 1)}>
            Older
          </Button>
        </div>
      </div>
    </div>
  );
}
