import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AdminPromoCode } from '../../../contracts/promo-admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { adminSectionTitles } from './admin-layout';
import { activePromosKey, deletePromo, fetchPromoPage, promoCodesKey, promoPageKey, updatePromo } from './promo-api';
import { PromoConfirm, type PromoConfirmation } from './promo-confirm';
import { PromoForm } from './promo-form';
import { PromoList } from './promo-list';

const pageSize = 25;

const messageOf = (error: unknown) => (error instanceof ApiError ? error.body?.message : undefined) ?? 'Please try again.';

/** Issue 5: promo codes with their usage and revenue; create, edit, switch on or off, delete unused ones. */
export function AdminPromoCodes() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = { q: params.get('q') ?? undefined, page: Math.max(1, Number(params.get('page')) || 1), pageSize };
  const [search, setSearch] = useState(filters.q ?? '');
  const [editing, setEditing] = useState<AdminPromoCode | 'new' | null>(null);
  const [confirming, setConfirming] = useState<PromoConfirmation | null>(null);
  const query = useQuery({ queryKey: promoPageKey(filters), queryFn: ({ signal }) => fetchPromoPage(filters, signal), placeholderData: keepPreviousData });

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

  const update = (next: { q?: string; page?: number }) => {
    const merged = new URLSearchParams(params);
    if ('q' in next) {
      if (next.q) merged.set('q', next.q);
      else merged.delete('q');
      merged.delete('page');
    }
    if (next.page) merged.set('page', String(next.page));
    setParams(merged);
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ q: search.trim() });
  };

  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;
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
      <p className="text-ink-500">Revenue counts orders placed with a code that were not cancelled or refunded, GST included.</p>
      <form onSubmit={submitSearch} className="flex items-end gap-2 rounded-2xl bg-white p-4" role="search">
        <TextField label="Search by code" className="flex-1" value={search} maxLength={100} onChange={(event) => setSearch(event.target.value)} />
        <Button type="submit" variant="outline">
          Search
        </Button>
      </form>

      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">
          {messageOf(query.error) === 'Please try again.' ? 'The promo codes could not be loaded.' : messageOf(query.error)}
        </p>
      ) : query.data.promoCodes.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">{filters.q ? 'No promo code matches this search.' : 'No promo codes yet.'}</p>
      ) : (
        <>
          <PromoList promos={query.data.promoCodes} actions={actions} />
          <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
            <p>
              {query.data.total} promo code{query.data.total === 1 ? '' : 's'} · page {query.data.page} of {pages}
            </p>
            <div className="flex gap-2">
              <Button variant="outline" disabled={query.data.page <= 1} onClick={() => update({ page: query.data.page - 1 })}>
                Previous
              </Button>
              <Button variant="outline" disabled={query.data.page >= pages} onClick={() => update({ page: query.data.page + 1 })}>
                Next
              </Button>
            </div>
          </div>
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
