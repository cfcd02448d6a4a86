import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptOneClickPosts, type LinkPage, linkPage, sendLinkPage } from '../../lib/link-page';
import { type SeasonBoxReminders, skipLinkPath, unskipLinkPath } from './reminders';
import { dayWords } from './schedule';
import type { SubscriptionService } from './service';

const tokenQuery = z.object({ token: z.string().min(20).max(200).optional().catch(undefined) });

/**
 * The reminder's one-click links: a GET asks (mail scanners open every link), a post skips the
 * box or brings it back. They work signed out, for the one delivery the token names, until its cut-off.
 */
export function seasonBoxMailRoutes(reminders: SeasonBoxReminders, subscriptions: SubscriptionService, publicUrl: string): FastifyPluginAsyncZod {
  const send = (reply: FastifyReply, page: LinkPage, found = true) => sendLinkPage(reply, linkPage(page, publicUrl), found);
  const account = { href: `${publicUrl}/account#season-box`, label: 'See your season box' };
  const invalid: LinkPage = { title: 'Link not valid', message: 'This link is invalid or no longer works. Sign in and open My account to skip or change your season box.', link: account };
  const address = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`;

  return async (app) => {
    acceptOneClickPosts(app);

    app.get(skipLinkPath, { schema: { querystring: tokenQuery } }, async (request, reply) => {
      const linked = request.query.token ? await reminders.deliveryOf(request.query.token) : null;
      if (!linked) return send(reply, invalid, false);
      return send(reply, {
        title: `Skip your box on ${dayWords(linked.deliveryDate)}?`,
        message: 'Press Skip this box and we will not send it or charge for it. The boxes after it still come.',
        form: { action: address(skipLinkPath, request.query.token!), button: 'Skip this box' },
        link: account,
      });
    });

    app.post(skipLinkPath, { schema: { querystring: tokenQuery } }, async (request, reply) => {
      const token = request.query.token;
      const linked = token ? await reminders.deliveryOf(token) : null;
      if (!linked) return send(reply, invalid, false);
      const done = await subscriptions.skipFromMail(linked.subscriptionId, linked.deliveryDate, true);
      if (!done.ok) return send(reply, { title: 'Could not skip this box', message: done.message, link: account }, true);
      return send(reply, {
        title: 'Box skipped',
        message: `We will not send your box on ${dayWords(linked.deliveryDate)}. Changed your mind? Bring it back before its cut-off.`,
        form: { action: address(unskipLinkPath, token!), button: 'Undo skip' },
        link: account,
      });
    });

    app.get(unskipLinkPath, { schema: { querystring: tokenQuery } }, async (request, reply) => {
      const linked = request.query.token ? await reminders.deliveryOf(request.query.token) : null;
      if (!linked) return send(reply, invalid, false);
      return send(reply, {
        title: `Bring back your box on ${dayWords(linked.deliveryDate)}?`,
        message: 'Press Undo skip and the box comes after all.',
        form: { action: address(unskipLinkPath, request.query.token!), button: 'Undo skip' },
        link: account,
      });
    });

    app.post(unskipLinkPath, { schema: { querystring: tokenQuery } }, async (request, reply) => {
      const token = request.query.token;
      const linked = token ? await reminders.deliveryOf(token) : null;
      if (!linked) return send(reply, invalid, false);
      const done = await subscriptions.skipFromMail(linked.subscriptionId, linked.deliveryDate, false);
      if (!done.ok) return send(reply, { title: 'Could not bring this box back', message: done.message, link: account }, true);
      return send(reply, {
        title: 'Your box is coming',
        message: `Your box on ${dayWords(linked.deliveryDate)} comes after all.`,
        form: { action: address(skipLinkPath, token!), button: 'Skip it again' },
        link: account,
      });
    });
  };
}
