import { linkPage } from '../../lib/link-page';

export type UnsubscribeOutcome = 'confirm' | 'unsubscribed' | 'invalid';

const copy: Record<UnsubscribeOutcome, [title: string, message: string]> = {
  confirm: ['Leave the newsletter?', 'Press Unsubscribe and we will stop sending you the Mango Shop newsletter.'],
  unsubscribed: ['Unsubscribed', 'You have been unsubscribed from the Mango Shop newsletter.'],
  invalid: ['Link not valid', 'This unsubscribe link is invalid or no longer works. If you still receive our newsletter, use the link in the latest e-mail.'],
};

/** The pages the newsletter's unsubscribe link opens; the confirm page's button unsubscribes. */
export function unsubscribePage(outcome: UnsubscribeOutcome, homeUrl: string, formAction = ''): string {
  const [title, message] = copy[outcome];
  return linkPage({ title, message, form: outcome === 'confirm' ? { action: formAction, button: 'Unsubscribe' } : undefined }, homeUrl);
}
