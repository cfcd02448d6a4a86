import { keepPreviousData, useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { AdminPromoCode } from '../../../../contracts/promo-admin';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { adminSectionTitles } from '../shared/admin-layout';
import { Pager } from '../shared/pager';
import { SearchBox } from '../shared/search-box';
import { useLastPageWhenPastEnd, useUrlFilters } from '../shared/use-url-filters';
import { activePromosKey, deletePromo, fetchPromoPage, promoCodesKey, promoPageKey, updatePromo } from './promo-api';
import { PromoConfirm, type PromoConfirmation } from './promo-confirm';
import { PromoForm } from './promo-form';
import { PromoList } from './promo-list';

const pageSize = 25;

const messageOf = (error: unknown) => errorMessage(error, 'Please try again.');

/** Issue 5: promo codes with their usage and revenue; create, edit, switch on or off, delete unused ones. */
export function AdminPromoCodes() {
  const queryClient = useQueryClient();
  const { params, page, update } = useUrlFilters();
  const filters = { q: params.get('q') ?? undefined, page, pageSize };
  const [editing, setEditing] = useState<AdminPromoCode | 'new' | null>(null);
  const [confirming, setConfirming] = useState<PromoConfirmation | null>(null);
  const query = useQuery({ queryKey: promoPageKey(filters), queryFn: ({ signal }) => fetchPromoPage(filters, signal), placeholderData: keepPreviousData });
  useLastPageWhenPastEnd(query.data, page, update);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: promoCodesKey });
    void queryClient.invalidateQueries({ queryKey: activePromosKey });
  };
  const toggle = useMutation({
    mutationFn: ({ promo, isActive }: { promo: AdminPromoCode; isActive: boolean }) => updatePromo(promo.id, { isActive }),
    onSuccess(saved) {
      refresh();
      setConfirming(null);
      toast({ title: saved.isActive ? `${saved.code} switched on` : `${saved.code} switched off` });
    },
    onError(error) {
      toast({ title: 'Promo code not changed', description: messageOf(error), variant: 'destructive' });
    },
  });
  const remove = useMutation({
    mutationFn: (promo: AdminPromoCode) => deletePromo(promo.id),
    onSuccess(_answer, promo) {
      refresh();
      setConfirming(null);
      toast({ title: `${promo.code} deleted` });
    },
    onError(error) {
      refresh();
      setConfirming(null);
      toast({ title: 'Promo code not deleted', description: messageOf(error), variant: 'destructive' });
    },
  });

  const actions = {
    onEdit: (promo: AdminPromoCode) => setEditing(promo),
    onToggle: (promo: AdminPromoCode) => (promo.isActive ? setConfirming({ kind: 'deactivate', promo }) : toggle.mutate({ promo, isActive: true })),
    onDelete: (promo: AdminPromoCode) => setConfirming({ kind: 'delete', promo }),
    busyId: toggle.isPending ? (toggle.variables?.promo.id ?? null) : null,
  };
  return (
    <section className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-4xl font-semibold">{adminSectionTitles['promo-codes']}</h1>
        <Button onClick={() => setEditing('new')}>
          <Plus className="size-5" strokeWidth={1.5} aria-hidden="true" /> New promo code
        </Button>
      </div>
      <p className="text-ink-500">Revenue counts paid orders placed with a code (not cancelled or refunded), GST included, as the reports do.</p>
      <SearchBox label="Search by code" initial={filters.q ?? ''} onSearch={(q) => update({ q })} className="rounded-2xl bg-white p-4" />

      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">
          {errorMessage(query.error, 'The promo codes could not be loaded.')}
        </p>
      ) : query.data.promoCodes.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">{filters.q ? 'No promo code matches this search.' : 'No promo codes yet.'}</p>
      ) : (
        <>
          <PromoList promos={query.data.promoCodes} actions={actions} />
          <Pager total={query.data.total} page={query.data.page} pageSize={query.data.pageSize} noun={['promo code', 'promo codes']} onPage={(next) => update({ page: next })} />
        </>
      )}

      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={editing === 'new' ? 'New promo code' : 'Edit promo code'} titled wide>
        {editing !== null && <PromoForm promo={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Dialog>
      <PromoConfirm
        confirming={confirming}
        busy={toggle.isPending || remove.isPending}
        onCancel={() => setConfirming(null)}
        onDeactivate={(promo) => toggle.mutate({ promo, isActive: false })}
        onDelete={(promo) => remove.mutate(promo)}
      />
    </section>
  );
}
