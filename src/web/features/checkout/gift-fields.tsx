import { Gift } from 'lucide-react';
import { characterCount, giftMessageMaxLength } from '../../../contracts/checkout';

interface GiftFieldsProps {
  gift: boolean;
  message: string;
  onGift: (gift: boolean) => void;
  onMessage: (message: string) => void;
  error?: string;
}

/** "Send as a gift": the delivery details become the recipient's, and a message goes in the box. */
export function GiftFields({ gift, message, onGift, onMessage, error }: GiftFieldsProps) {
  const used = characterCount(message);
  return (
    <div className={`grid gap-3 rounded-xl border p-4 ${gift ? 'border-mango-600 bg-mango-50' : 'border-ink-500/30'}`}>
      <label className="flex items-center gap-2 font-semibold">
        <input type="checkbox" className="size-4 accent-mango-600" checked={gift} onChange={(event) => onGift(event.target.checked)} aria-describedby="gift-help" />
        <Gift className="size-5 text-mango-700" aria-hidden="true" /> Send as a gift
      </label>
      <p id="gift-help" className="text-sm text-ink-500">
        {gift
          ? 'Enter the recipient’s name and address below. The box carries your message and no prices; the receipt comes to you.'
          : 'Sending mangoes to someone else? We leave the prices out of the box and add your message.'}
      </p>
      {gift && (
        <div className="grid gap-1.5">
          <label htmlFor="gift-message" className="text-sm font-medium">
            Gift message (optional)
          </label>
          <textarea
            id="gift-message"
            rows={3}
            value={message}
            onChange={(event) => onMessage(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby="gift-message-count"
            data-field="gift.message"
            placeholder="For example: Happy birthday, Mum! The first Alphonsos of the season."
            className="w-full rounded-lg border border-ink-500/30 bg-white px-3 py-2.5 text-base outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40"
          />
          <p id="gift-message-count" className={`text-right text-xs ${used > giftMessageMaxLength ? 'font-semibold text-danger-600' : 'text-ink-500'}`}>
            {used} / {giftMessageMaxLength} characters
          </p>
          {error && (
            <p role="alert" className="text-sm text-danger-600">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
