import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ExternalLink, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminPageSummary } from '../../../../contracts/content-admin';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../../contracts/dates';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { deletePage, fetchStaffPages, refreshPages, staffPagesKey } from './content-admin-api';

/** Every content page with its address and last change; linked pages can be edited, not deleted. */
export function ContentPageList({ onOpen }: { onOpen: (slug: string) => void }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: staffPagesKey, queryFn: ({ signal }) => fetchStaffPages(signal) });
  const [deleting, setDeleting] = useState<AdminPageSummary | null>(null);
  const remove = useMutation({
    mutationFn: (page: AdminPageSummary) => deletePage(page.slug),
    onSuccess(_answer, page) {
      refreshPages(queryClient, page.slug);
      setDeleting(null);
      toast({ title: 'Page deleted', description: `/content/${page.slug} now shows 'Page not found'.` });
    },
    onError(error) {
      toast({ title: 'The page was not deleted', description: error instanceof ApiError ? error.body?.message : undefined, variant: 'destructive' });
    },
  });
  return (
    <Panel title="Pages">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-ink-500">Written in markdown. Pages the shop links to can be edited but not deleted.</p>
        <Button onClick={() => onOpen('new')}>
          <Plus className="size-5" aria-hidden="true" /> New page
        </Button>
      </div>
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">The pages could not be loaded.</p>
      ) : (
        <ul className="divide-y divide-mango-50" aria-label="Content pages">
          {query.data.map((page) => (
            <li key={page.slug} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
              <div className="grid min-w-0 gap-0.5">
                <p className="font-semibold">
                  {page.title}
                  {page.isProtected && <span className="ml-2 rounded-full bg-mango-50 px-2 py-0.5 text-xs font-semibold ring-1 ring-ink-500/30">Linked from the shop</span>}
                </p>
                <p className="text-sm text-ink-500">
                  <span className="break-all">/content/{page.slug}</span> · changed {formatDateTime(page.updatedAt)}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Link to={`/content/${page.slug}`} target="_blank" rel="noopener" className="inline-flex items-center gap-1 rounded-full px-3 py-1.5 text-sm font-semibold hover:bg-mango-50" aria-label={`View ${page.title} in the shop (opens a new tab)`}>
                  View <ExternalLink className="size-4" aria-hidden="true" />
                </Link>
                <Button variant="outline" className="px-3 py-1.5" onClick={() => onOpen(page.slug)} aria-label={`Edit ${page.title}`}>
                  Edit
                </Button>
                {!page.isProtected && (
                  <Button variant="ghost" className="px-3 py-1.5 text-danger-600!" onClick={() => setDeleting(page)} aria-label={`Delete ${page.title}`}>
                    Delete
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the page ${deleting?.title ?? ''}?`}
        description={`Its text is gone for good and /content/${deleting?.slug ?? ''} will show 'Page not found'.`}
        confirmLabel="Delete page"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Panel>
  );
}
