import { type ChangeEvent, useState } from 'react';
import type { OrderView } from '../../../contracts/order';
import { type RefundView, refundAccountSchema } from '../../../contracts/refunds';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError, apiRequest } from '../../lib/api-client';
import { formatDate, formatPrice } from '../../lib/format';
import { useQueryClient } from '../../lib/query';
import { useSchemaForm } from '../../lib/use-schema-form';
import { orderQueryKey } from './orders-api';

const postRefundAccount = (number: string, account: { accountName: string; accountNumber: string }) =>
  apiRequest<OrderView>(`/api/orders/${encodeURIComponent(number)}/refund-account`, { method: 'POST', body: account });

/** Where one refund is, in the shopper's words. */
function refundLine(refund: RefundView): string {
  const amount = formatPrice(refund.amount);
  if (refund.state === 'refunded') return `${amount} refunded on ${formatDate(refund.refundedAt ?? refund.createdAt)}, ${refund.method === 'card' ? 'to your card' : 'by bank transfer'}.`;
  if (refund.state === 'pending') return `${amount} is on its way back to the card you paid with.`;
  if (refund.accountEnding) return `We owe you ${amount}: we pay it into your account ending ${refund.accountEnding} and e-mail you when it is on its way.`;
  return `We owe you ${amount}. Tell us the bank account to pay it into.`;
}

/** The order's refunds; one owed by transfer asks for the account it goes to (the shop does not know it). */
export function OrderRefunds({ order }: { order: OrderView }) {
  const owed = order.refunds.filter((refund) => refund.state === 'owed');
  const needsAccount = owed.some((refund) => !refund.accountEnding);
  const [changing, setChanging] = useState(false);
  if (order.refunds.length === 0) return null;
  return (
    <section id="refund" aria-labelledby="refunds-heading" className="grid scroll-mt-24 gap-3 rounded-2xl bg-white p-5 sm:p-6">
      <h3 id="refunds-heading" className="text-xl font-semibold">
        Refunds
      </h3>
      <ul className="grid gap-1.5">
        {order.refunds.map((refund) => (
          <li key={refund.id} className={refund.state === 'owed' ? 'font-medium' : ''}>
            {refundLine(refund)} <span className="text-sm text-ink-500">({refund.reason})</span>
          </li>
        ))}
      </ul>
      {owed.length > 0 &&
        (needsAccount || changing ? (
          <RefundAccountForm number={order.number} onDone={() => setChanging(false)} />
        ) : (
          <div>
            <Button variant="outline" onClick={() => setChanging(true)}>
              Use another account
            </Button>
          </div>
        ))}
    </section>
  );
}

const empty = { accountName: '', accountNumber: '' };

function RefundAccountForm({ number, onDone }: { number: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(empty);
  const { errors, busy, handleSubmit, revalidate } = useSchemaForm(refundAccountSchema, {
    async send(account) {
      const next = await postRefundAccount(number, account);
      queryClient.setQueryData(orderQueryKey(number), next);
      setForm(empty);
      onDone();
      toast({ title: 'Bank account saved', description: 'We will pay your refund into it and e-mail you when it is on its way.' });
    },
    onError(error) {
      toast({ title: 'The account was not saved', description: error instanceof ApiError ? error.body?.message : 'Please try again.', variant: 'destructive' });
    },
  });
  const field = (name: keyof typeof empty) => ({
    value: form[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...form, [name]: event.target.value };
      setForm(next);
      revalidate(next);
    },
  });
  return (
    <form onSubmit={handleSubmit(form)} noValidate className="grid gap-3 sm:grid-cols-2">
      <TextField label="Name on the account" autoComplete="name" maxLength={100} {...field('accountName')} />
      <TextField label="Bank account number" inputMode="numeric" placeholder="Bank-branch-account-suffix" maxLength={20} {...field('accountNumber')} />
      <p className="text-sm text-ink-500 sm:col-span-2">Only our team sees it, to pay this refund.</p>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save bank account'}
        </Button>
      </div>
    </form>
  );
}
