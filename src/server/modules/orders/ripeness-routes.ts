import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { optOutRoutes } from '../../lib/link-page';
import type { ReadyReminders } from './ripeness';

/** The opt-out link of the ripeness e-mails. */
export function ripenessRoutes(reminders: ReadyReminders, publicUrl: string): FastifyPluginAsyncZod {
  return optOutRoutes(
    {
      path: '/api/ripeness-reminders/opt-out',
      ask: {
        title: 'No more ripeness reminders?',
        message: 'Press Turn off and we will not e-mail you when the mangoes you order should be ready to eat. Your order and delivery e-mails stay as they are.',
      },
      done: {
        title: 'Reminders turned off',
        message: 'We will not e-mail you when your mangoes should be ready. The ripening guide still comes with each shipping e-mail, and you can turn reminders back on under My account.',
      },
      invalid: {
        title: 'Link not valid',
        message: 'This link is invalid or no longer works. The link in your latest ripeness e-mail turns the reminders off.',
      },
    },
    reminders.optOutLinks,
    publicUrl,
  );
}
