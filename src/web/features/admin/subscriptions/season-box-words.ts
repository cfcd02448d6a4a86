import {
  intervalLabels,
  type SeasonBoxDeliveryState,
  type SubscriptionInterval,
  type SubscriptionRunResult,
  type SubscriptionStatus,
  subscriptionStatusLabels,
  weekdayNames,
} from '../../../../contracts/subscriptions';

/** How often and on which day, as staff read it: "Every week on Friday". */
export function scheduleText(every: SubscriptionInterval, weekday: string): string {
  return `${intervalLabels[every]} on ${(weekdayNames as Record<string, string | undefined>)[weekday] ?? weekday}`;
}

/** A status as staff read it: the contract's words are the shopper's ("Waiting for your card"). */
export const staffStatusLabels: Record<SubscriptionStatus, string> = { ...subscriptionStatusLabels, awaiting_card: 'Waiting for a card' };

/** What became of one delivery, in staff's words. */
export const deliveryStateLabels: Record<SeasonBoxDeliveryState, string> = {
  scheduled: 'To come',
  skipped: 'Skipped',
  ordered: 'Order made',
  missed: 'Missed: short of stock',
  paused: 'Paused',
};

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A run's answer in one line: "Made 3 orders; 1 box short of stock; 2 already done". */
export function runResultText(result: SubscriptionRunResult): string {
  return `Made ${counted(result.ordered, 'order', 'orders')}; ${counted(result.missed, 'box', 'boxes')} short of stock; ${result.alreadyDone} already done`;
}
