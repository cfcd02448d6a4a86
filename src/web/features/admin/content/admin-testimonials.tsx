import { Plus, Star } from 'lucide-react';
import type { AdminTestimonial } from '../../../../contracts/content-admin';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { adminSectionTitles } from '../shared/admin-layout';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { deleteTestimonial, fetchStaffTestimonials, orderTestimonials, refreshTestimonials, staffTestimonialsKey, updateTestimonial } from './content-admin-api';
import { OrderAnnouncement, OrderButtons } from './content-order-buttons';
import { HiddenBadge, ItemActions, useOrderedList } from './ordered-list';
import { TestimonialForm } from './testimonial-form';

/** Issue 5: every testimonial, hidden ones too, in the carousel's order; add, edit, hide, order and delete. */
export function AdminTestimonials() {
  const { query, items, order, editing, setEditing, deleting, setDeleting, visibility, remove } = useOrderedList<AdminTestimonial>({
    noun: 'Testimonial',
    queryKey: staffTestimonialsKey,
    fetch: fetchStaffTestimonials,
    sendOrder: orderTestimonials,
    refresh: refreshTestimonials,
    nameOf: (testimonial) => testimonial.author,
    isShown: (testimonial) => testimonial.isVisible,
    setShown: (testimonial, isVisible) => updateTestimonial(testimonial.id, { isVisible }),
    remove: (testimonial) => deleteTestimonial(testimonial.id),
  });
  return (
    <section className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-4xl font-semibold">{adminSectionTitles['testimonials']}</h1>
        <Button onClick={() => setEditing('new')}>
          <Plus className="size-5" aria-hidden="true" /> New testimonial
        </Button>
      </div>
      <p className="text-ink-500">The home page carousel shows the visible ones in this order. Hidden ones stay here until you show or delete them.</p>
      <OrderAnnouncement text={order.announcement} />
      {query.isPending ? (
        <Spinner compact />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">The testimonials could not be loaded.</p>
      ) : items.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">No testimonials yet. The storefront shows its three built-in ones until you add some.</p>
      ) : (
        <ol className="grid gap-3" aria-label="Testimonials in carousel order">
          {items.map((testimonial, index) => (
            <li key={testimonial.id} className={`grid gap-3 rounded-2xl bg-white p-4 sm:grid-cols-[auto_minmax(0,1fr)_auto] sm:items-start sm:p-5 ${testimonial.isVisible ? '' : 'opacity-80 ring-1 ring-ink-500/20'}`}>
              <div className="flex items-center gap-3 sm:flex-col">
                <span className="w-6 text-center text-sm font-semibold tabular-nums text-ink-500" aria-hidden="true">{index + 1}</span>
                <OrderButtons name={testimonial.author} index={index} count={items.length} onMove={(from, to) => order.move(items, from, to)} />
              </div>
              <div className="grid min-w-0 gap-2">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  {testimonial.imageUrl && <img src={testimonial.imageUrl} alt="" width={40} height={40} className="size-10 rounded-full object-cover" />}
                  <p className="font-semibold">{testimonial.author}</p>
                  <p className="inline-flex items-center gap-1 text-sm tabular-nums">
                    <Star className="size-4 fill-mango-500 text-mango-600" aria-hidden="true" />
                    <span className="sr-only">Rated </span>{testimonial.rating} <span className="text-ink-500">/ 5</span>
                  </p>
                  {!testimonial.isVisible && <HiddenBadge />}
                </div>
                <blockquote className="line-clamp-3 break-words text-ink-900">{testimonial.content}</blockquote>
              </div>
              <ItemActions
                label={`the testimonial from ${testimonial.author}`}
                shown={testimonial.isVisible}
                busy={visibility.isPending}
                onEdit={() => setEditing(testimonial)}
                onToggle={() => visibility.mutate(testimonial)}
                onDelete={() => setDeleting(testimonial)}
              />
            </li>
          ))}
        </ol>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title="Testimonial" titled>
        {editing !== null && <TestimonialForm editing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the testimonial from ${deleting?.author ?? ''}?`}
        description="It disappears from the storefront and from this list. To take it off the storefront for a while, hide it instead."
        confirmLabel="Delete testimonial"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
