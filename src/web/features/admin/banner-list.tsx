import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EyeOff, Plus } from 'lucide-react';
import { useState } from 'react';
import type { AdminBanner } from '../../../contracts/content-admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Panel } from '../../components/ui/panel';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { BannerForm } from './banner-form';
import { deleteBanner, fetchStaffBanners, orderBanners, refreshBanners, staffBannersKey, updateBanner } from './content-admin-api';
import { ConfirmDialog } from './confirm-dialog';
import { OrderAnnouncement, OrderButtons, useListOrder } from './content-order-buttons';

/** The farm gallery's banners in their order, hidden ones too: add, edit, hide, order and delete. */
export function BannerList() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: staffBannersKey, queryFn: ({ signal }) => fetchStaffBanners(signal) });
  const [editing, setEditing] = useState<AdminBanner | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminBanner | null>(null);
  const order = useListOrder({ queryKey: staffBannersKey, send: orderBanners, refresh: () => refreshBanners(queryClient), nameOf: (b) => b.title });
  const failed = (title: string) => (error: unknown) =>
    toast({ title, description: error instanceof ApiError ? error.body?.message : undefined, variant: 'destructive' });
  const visibility = useMutation({
    mutationFn: (banner: AdminBanner) => updateBanner(banner.id, { isActive: !banner.isActive }),
    onSuccess(saved) {
      refreshBanners(queryClient);
      toast({ title: saved.isActive ? 'Banner shown' : 'Banner hidden', description: saved.title });
    },
    onError: failed('The banner was not changed'),
  });
  const remove = useMutation({
    mutationFn: (banner: AdminBanner) => deleteBanner(banner.id),
    onSuccess() {
      refreshBanners(queryClient);
      setDeleting(null);
      toast({ title: 'Banner deleted' });
    },
    onError: failed('The banner was not deleted'),
  });
  const items = query.data ?? [];
  return (
    <Panel title="Farm gallery">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-ink-500">The home page shows the visible banners in this order; with none, it shows its built-in pictures.</p>
        <Button onClick={() => setEditing('new')}>
          <Plus className="size-5" aria-hidden="true" /> New banner
        </Button>
      </div>
      <OrderAnnouncement text={order.announcement} />
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">The banners could not be loaded.</p>
      ) : items.length === 0 ? (
        <p className="text-ink-500">No banners yet.</p>
      ) : (
        <ol className="grid gap-3" aria-label="Farm gallery banners in order">
          {items.map((banner, index) => (
            <li key={banner.id} className="flex flex-wrap items-center gap-3 rounded-xl border border-mango-50 p-3">
              <OrderButtons name={banner.title} index={index} count={items.length} onMove={(from, to) => order.move(items, from, to)} />
              <img src={banner.imageUrl} alt="" width={96} height={72} className={`h-18 w-24 shrink-0 rounded-lg bg-mango-50 object-cover ${banner.isActive ? '' : 'opacity-50'}`} />
              <div className="grid min-w-0 flex-1 basis-40 gap-1">
                <p className="break-words font-semibold">{banner.title}</p>
                {!banner.isActive && (
                  <span className="inline-flex w-fit items-center gap-1 rounded-full bg-mango-50 px-2 py-0.5 text-xs font-semibold ring-1 ring-ink-500/30">
                    <EyeOff className="size-3.5" aria-hidden="true" /> Hidden
                  </span>
                )}
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" className="px-3 py-1.5" onClick={() => setEditing(banner)} aria-label={`Edit the banner ${banner.title}`}>
                  Edit
                </Button>
                <Button variant="outline" className="px-3 py-1.5" disabled={visibility.isPending} onClick={() => visibility.mutate(banner)} aria-label={`${banner.isActive ? 'Hide' : 'Show'} the banner ${banner.title}`}>
                  {banner.isActive ? 'Hide' : 'Show'}
                </Button>
                <Button variant="ghost" className="px-3 py-1.5 text-danger-600!" onClick={() => setDeleting(banner)} aria-label={`Delete the banner ${banner.title}`}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title="Banner" titled>
        {editing !== null && <BannerForm editing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the banner ${deleting?.title ?? ''}?`}
        description="It disappears from the farm gallery for good. To take it off for a while, hide it instead."
        confirmLabel="Delete banner"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Panel>
  );
}
