import { formatDeadline } from '../../../contracts/dates';
import { intervalLabels, type SeasonBoxDelivery, subscriptionStatusLabels, type SubscriptionView, weekdayNames } from '../../../contracts/subscriptions';
import { dayWords } from '../../../contracts/season-box-terms';

/** "Every fortnight on Friday". */
export function howOftenWords(view: Pick<SubscriptionView, 'every' | 'weekday'>): string {
  return `${intervalLabels[view.every]} on ${weekdayNames[view.weekday] ?? view.weekday}`;
}

/** "Active", "Paused until Friday 12 December", "Cancelled", "Season ended". */
export function statusWords(view: Pick<SubscriptionView, 'status' | 'pausedUntil'>): string {
  if (view.status === 'paused' && view.pausedUntil) return `Paused until ${dayWords(view.pausedUntil)}`;
  return subscriptionStatusLabels[view.status];
}

export const boxesWords = (quantity: number): string => `${quantity} ${quantity === 1 ? 'box' : 'boxes'}`;

/** What one coming delivery is now, in a line: its cut-off while it can be changed, else what became of it. */
export function deliveryWords(delivery: Pick<SeasonBoxDelivery, 'state' | 'open' | 'cutoffAt' | 'note'>): string {
  const by = formatDeadline(delivery.cutoffAt);
  switch (delivery.state) {
    case 'scheduled':
      return delivery.open ? `Skip or change by ${by}` : 'Past its cut-off: it is being made into an order.';
    case 'skipped':
      return `${delivery.note ?? 'Skipped'}${delivery.open ? `. Bring it back by ${by}` : ''}`;
    case 'ordered':
      return 'Ordered';
    case 'missed':
      return delivery.note ?? 'Not sent: we did not have enough boxes that day.';
    case 'paused':
      return 'Paused: this box will not come.';
  }
}
