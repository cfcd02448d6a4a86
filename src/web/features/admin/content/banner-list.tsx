import { Plus } from 'lucide-react';
import type { AdminBanner } from '../../../../contracts/content-admin';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { BannerForm } from './banner-form';
import { deleteBanner, fetchStaffBanners, orderBanners, refreshBanners, staffBannersKey, updateBanner } from './content-admin-api';
import { OrderAnnouncement, OrderButtons } from './content-order-buttons';
import { HiddenBadge, ItemActions, useOrderedList } from './ordered-list';

/** The farm gallery's banners in their order, hidden ones too: add, edit, hide, order and delete. */
export function BannerList() {
  const { query, items, order, editing, setEditing, deleting, setDeleting, visibility, remove } = useOrderedList<AdminBanner>({
    noun: 'Banner',
    queryKey: staffBannersKey,
    fetch: fetchStaffBanners,
    sendOrder: orderBanners,
    refresh: refreshBanners,
    nameOf: (banner) => banner.title,
    isShown: (banner) => banner.isActive,
    setShown: (banner, isActive) => updateBanner(banner.id, { isActive }),
    remove: (banner) => deleteBanner(banner.id),
  });
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
                {!banner.isActive && <HiddenBadge />}
              </div>
              <ItemActions
                label={`the banner ${banner.title}`}
                shown={banner.isActive}
                busy={visibility.isPending}
                onEdit={() => setEditing(banner)}
                onToggle={() => visibility.mutate(banner)}
                onDelete={() => setDeleting(banner)}
              />
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
