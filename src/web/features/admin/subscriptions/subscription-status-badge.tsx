import type { SubscriptionStatus } from '../../../../contracts/subscriptions';
import { staffStatusLabels } from './season-box-words';

const tones: Record<SubscriptionStatus, string> = {
  awaiting_card: 'bg-mango-50 text-mango-700 ring-mango-600/40',
  active: 'bg-white text-leaf-700 ring-leaf-700/40',
  paused: 'bg-mango-50 text-mango-700 ring-mango-600/40',
  cancelled: 'bg-white text-danger-600 ring-danger-600/40',
  ended: 'bg-white text-ink-500 ring-ink-500/40',
};

/** A season box's status in words: Active, Paused, Cancelled, Season ended.... */
export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return <span className={`inline-block whitespace-nowrap rounded-full px-3 py-0.5 text-sm font-semibold ring-1 ${tones[status]}`}>{staffStatusLabels[status]}</span>;
}
