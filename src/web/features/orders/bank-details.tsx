import type { OrderView } from '../../../contracts/order';
import { formatDate, formatPrice } from '../../lib/format';

/** How to pay a bank-transfer order: the shop's account, the amount and the order number as reference. */
export function BankDetails({ bank, total }: { bank: NonNullable<OrderView['bankTransfer']>; total: number }) {
  const rows: Array<[string, string]> = [
    ['Account name', bank.accountName],
    ['Account number', bank.accountNumber || 'Please contact us for it'],
    ...(bank.bankName ? ([['Bank', bank.bankName]] as Array<[string, string]>) : []),
    ['Reference', bank.reference],
    ['Amount', formatPrice(total)],
  ];
  return (
    <div className="grid gap-3 rounded-xl bg-mango-50 p-4">
      <p className="font-semibold">Please pay by bank transfer by {formatDate(bank.payBy)}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-500">{label}</dt>
            <dd className="font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-ink-500">Use the reference so we can match your payment. Unpaid orders are cancelled after the date above.</p>
    </div>
  );
}
