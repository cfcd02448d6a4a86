import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptOneClickPosts, type LinkPage, linkPage, sendLinkPage } from '../../lib/link-page';
import { optOutLinkPath, type ReadyReminders } from './ripeness';

const tokenQuery = z.object({ token: z.string().min(20).max(200).optional().catch(undefined) });

const invalid: LinkPage = {
  title: 'Link not valid',
  message: 'This link is invalid or no longer works. The link in your latest ripeness e-mail turns the reminders off.',
};

/** The opt-out link of the ripeness e-mails: a GET shows a button (mail scanners open every link), a post turns them off. */
export function ripenessRoutes(reminders: ReadyReminders, publicUrl: string): FastifyPluginAsyncZod {
  const send = (reply: FastifyReply, page: LinkPage, found = true) => sendLinkPage(reply, linkPage(page, publicUrl), found);

  return async (app) => {
    acceptOneClickPosts(app);

    app.get('/api/ripeness-reminders/opt-out', { schema: { querystring: tokenQuery } }, async (request, reply) => {
      const { token } = request.query;
      if (!token || !(await reminders.linkIsValid(token))) return send(reply, invalid, false);
      return send(reply, {
        title: 'No more ripeness reminders?',
        message: 'Press Turn off and we will not e-mail you when the mangoes you order should be ready to eat. Your order and delivery e-mails stay as they are.',
        form: { action: optOutLinkPath(token), button: 'Turn off' },
      });
    });

    app.post('/api/ripeness-reminders/opt-out', { schema: { querystring: tokenQuery } }, async (request, reply) => {
      const { token } = request.query;
      if (!token || !(await reminders.optOut(token))) return send(reply, invalid, false);
      return send(reply, {
        title: 'Reminders turned off',
        message: 'We will not e-mail you when your mangoes should be ready. The ripening guide still comes with each shipping e-mail, and you can turn reminders back on under My account.',
      });
    });
  };
}
