import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { formatDeadline } from '../../../contracts/dates';
import type { OrderView } from '../../../contracts/order';
import { sampleBankAccountNumber } from '../../../contracts/settings';
import { formatPrice } from '../../lib/format';

/**
 * Copies `value` to the clipboard for pasting into a banking app, and shows a tick for a moment.
 * An icon with its name in aria-label: the value beside it stays the row's only text.
 */
function CopyButton({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an old browser, a page not served securely): the value stays on screen to copy by hand.
      setCopied(false);
    }
  };
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
      title={copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
      className="inline-flex size-8 items-center justify-center rounded-full border border-ink-500/30 bg-white hover:border-mango-600">
      {copied ? <Check className="size-4 text-leaf-700" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
    </button>
  );
}

/** How to pay a bank-transfer order: the shop's account, the amount and the order number as reference, each ready to copy. */
export function BankDetails({ bank }: { bank: NonNullable<OrderView['bankTransfer']> }) {
  const rows: Array<{ label: string; value: string; copy?: boolean }> = [
    { label: 'Account name', value: bank.accountName },
    ...(bank.accountNumber ? [{ label: 'Account number', value: bank.accountNumber, copy: true }] : []),
    ...(bank.bankName ? [{ label: 'Bank', value: bank.bankName }] : []),
    { label: 'Reference', value: bank.reference, copy: true },
    { label: 'Amount', value: formatPrice(bank.amount) },
  ];
  return (
    <div className="grid gap-3 rounded-xl bg-mango-50 p-4">
      <p className="font-semibold">Please pay by bank transfer by {formatDeadline(bank.payBy)}</p>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1.5 text-sm">
        {rows.map(({ label, value, copy }) => (
          <div key={label} className="contents">
            <dt className="text-ink-500">{label}</dt>
            <dd className="flex flex-wrap items-center gap-2 font-medium tabular-nums">
              <span className="whitespace-nowrap">{value}</span>
              {copy && <CopyButton label={label} value={value} />}
            </dd>
          </div>
        ))}
      </dl>
      {!bank.accountNumber && <p className="text-sm">Our account number is not on the site right now: please contact us for it.</p>}
      {bank.accountNumber === sampleBankAccountNumber && (
        <p role="note" className="rounded-lg bg-white px-3 py-2 text-sm font-semibold text-danger-600">
          This is a sample account number: the shop is still being set up. Please contact us before paying.
        </p>
      )}
      <p className="text-sm text-ink-500">Use the reference so we can match your payment. We pack your order once it is paid; unpaid by then, it is cancelled.</p>
    </div>
  );
}
