import { useQuery } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { useState } from 'react';
import { Link } from 'react-router';
import type { InventoryRow } from '../../../../contracts/inventory';
import { orderStatusLabels } from '../../../../contracts/order';
import type { PreOrderBook } from '../../../../contracts/pre-order';
import { Button } from '../../../components/ui/button';
import { DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { formatDateTime } from '../../../../contracts/dates';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { fetchPreOrderBook, postAllocateStock, postOpenSales, preOrderBookKey } from '../shared/admin-api';
import { boxes, CancelWaitingForm, ExpectedDateForm, messageOf, ShipmentForm, useRefresh } from './pre-order-forms';

type Action = 'shipment' | 'date' | 'cancel' | null;

/** The season for one pre-order product (decision 0015): who waits, shipments, and what staff can do. */
export function PreOrderPanel({ row }: { row: InventoryRow }) {
  const query = useQuery({ queryKey: preOrderBookKey(row.productId), queryFn: ({ signal }) => fetchPreOrderBook(row.productId, signal) });
  const [action, setAction] = useState<Action>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const refresh = useRefresh(row.productId);
  const allocate = useMutation({
    mutationFn: () => postAllocateStock(row.productId),
    onSuccess(result) {
      refresh();
      toast({
        title: 'Stock allocated',
        description: result.allocated.length
          ? `${boxes(result.allocated.reduce((sum, entry) => sum + entry.boxes, 0))} set aside for ${result.allocated.length} ${result.allocated.length === 1 ? 'order' : 'orders'}.`
          : 'No waiting pre-order fits the stock left.',
      });
    },
    onError: (error) => toast({ title: 'Nothing allocated', description: messageOf(error), variant: 'destructive' }),
  });
  const open = useMutation({
    mutationFn: () => postOpenSales(row.productId),
    onSuccess(result) {
      refresh();
      setConfirmOpen(false);
      toast({ title: 'Now selling from stock', description: `${row.name}: ${result.stock} in stock.` });
    },
    onError(error) {
      setConfirmOpen(false);
      toast({ title: 'Still a pre-order', description: messageOf(error), variant: 'destructive' });
    },
  });
  if (query.isPending || query.isError) {
    return (
      <div className="grid gap-4">
        <DialogTitle className="pr-8 text-2xl font-semibold">Pre-orders: {row.name}</DialogTitle>
        {query.isPending ? <Spinner compact /> : <p role="alert" className="text-danger-600">The pre-orders could not be loaded.</p>}
      </div>
    );
  }
  const book = query.data;
  return (
    <div className="grid gap-5">
      <DialogTitle className="pr-8 text-2xl font-semibold">Pre-orders: {book.name}</DialogTitle>
      <DialogDescription className="text-ink-500">
        {book.isPreOrder ? `Expected ${book.expectedAvailabilityDate ? formatDate(book.expectedAvailabilityDate) : 'soon'}. ` : 'Selling from stock. '}
        Shipments go to paid pre-orders before unpaid ones, oldest first, each order line whole.
      </DialogDescription>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Pre-ordered" value={book.preOrdered} />
        <Figure label="Allocated" value={book.allocated} />
        <Figure label="Waiting" value={book.waiting} />
        <Figure label="Left in stock" value={book.stock} />
      </dl>
      {book.isPreOrder && (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setAction(action === 'shipment' ? null : 'shipment')} aria-expanded={action === 'shipment'}>
            Record shipment
          </Button>
          {book.lines.some((line) => line.state === 'waiting' && line.boxes <= book.stock) && (
            <Button variant="outline" onClick={() => allocate.mutate()} disabled={allocate.isPending}>
              {allocate.isPending ? 'Allocating...' : 'Allocate from stock'}
            </Button>
          )}
          {book.waiting > 0 && (
            <>
              <Button variant="outline" onClick={() => setAction(action === 'date' ? null : 'date')} aria-expanded={action === 'date'}>
                Move expected date
              </Button>
              <Button variant="outline" onClick={() => setAction(action === 'cancel' ? null : 'cancel')} aria-expanded={action === 'cancel'}>
                Cancel waiting pre-orders
              </Button>
            </>
          )}
          {book.waiting === 0 && (
            <Button variant="outline" onClick={() => setConfirmOpen(true)}>
              Sell from stock
            </Button>
          )}
        </div>
      )}
      {action === 'shipment' && <ShipmentForm book={book} onDone={() => setAction(null)} />}
      {action === 'date' && <ExpectedDateForm book={book} onDone={() => setAction(null)} />}
      {action === 'cancel' && <CancelWaitingForm book={book} onDone={() => setAction(null)} />}
      <PreOrderLines book={book} />
      {book.shipments.length > 0 && (
        <section className="grid gap-2" aria-labelledby="shipments-heading">
          <h3 id="shipments-heading" className="text-lg font-semibold">Shipments</h3>
          <ul className="grid gap-1 text-sm">
            {book.shipments.map((shipment) => (
              <li key={shipment.id}>
                {formatDate(shipment.arrivalDate)}: {boxes(shipment.boxes)} received, {boxes(shipment.allocatedBoxes)} allocated
                {shipment.note && <span className="text-ink-500"> ({shipment.note})</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <ConfirmDialog
        open={confirmOpen}
        title={`Sell ${book.name} from stock?`}
        description={`Every pre-order is served. ${book.name} stops taking pre-orders and sells its ${boxes(book.stock)} in stock like any other product.`}
        confirmLabel="Sell from stock"
        cancelLabel="Cancel"
        busy={open.isPending}
        onConfirm={() => open.mutate()}
        onCancel={() => setConfirmOpen(false)}
      />
    </div>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl bg-cream-50 p-3">
      <dt className="text-sm text-ink-500">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function PreOrderLines({ book }: { book: PreOrderBook }) {
  if (!book.lines.length) return <p className="text-ink-500">Nobody has pre-ordered {book.name} yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">Pre-orders of {book.name}, in the order shipments serve them</caption>
        <thead>
          <tr className="border-b border-ink-500/30">
            <th scope="col" className="px-2 py-1 first:pl-0 font-semibold">Order</th>
            <th scope="col" className="px-2 py-1 first:pl-0 font-semibold">Customer</th>
            <th scope="col" className="px-2 py-1 first:pl-0 text-right font-semibold">Boxes</th>
            <th scope="col" className="px-2 py-1 first:pl-0 font-semibold">Placed</th>
            <th scope="col" className="px-2 py-1 first:pl-0 font-semibold">Boxes are</th>
          </tr>
        </thead>
        <tbody>
          {book.lines.map((line, index) => (
            // An order may hold two lines of one product (never from the cart, which merges them).
            <tr key={`${line.orderNumber}-${index}`} className="border-b border-mango-50 align-top">
              <td className="px-2 py-1 first:pl-0">
                <Link className="font-semibold text-mango-700 hover:underline" to={`/admin/orders/${line.orderNumber}`}>
                  {line.orderNumber}
                </Link>
                <span className="block text-ink-500">{orderStatusLabels[line.orderStatus]}</span>
              </td>
              <td className="px-2 py-1 first:pl-0">
                {line.customer}
                <span className="block text-ink-500">{line.email}</span>
              </td>
              <td className="px-2 py-1 first:pl-0 text-right tabular-nums">{line.boxes}</td>
              <td className="px-2 py-1 first:pl-0">{formatDateTime(line.placedAt)}</td>
              <td className="px-2 py-1 first:pl-0">{line.state === 'set-aside' ? <span className="font-semibold text-leaf-700">Set aside</span> : line.state === 'waiting' ? <span className="font-semibold text-mango-700">Waiting</span> : 'Sent'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
