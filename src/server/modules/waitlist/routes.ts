import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../contracts/product';
import { joinWaitlistSchema, type WaitlistJoinAnswer, waitlistTokenQuerySchema } from '../../../contracts/waitlist';
import { rateLimitAddress } from '../../lib/client-address';
import { NotFound } from '../../lib/errors';
import { acceptOneClickPosts, type LinkPage, linkPage, sendLinkPage } from '../../lib/link-page';
import { adminOnly, currentUser, requireUser, signedInOnly } from '../auth/request-user';
import { manageLinkPath, unsubscribeLinkPath } from './links';
import { asCsvDownload } from '../../lib/csv';
import type { ManageLinkState, WaitlistService } from './service';

const manageQuerySchema = waitlistTokenQuerySchema.extend({ action: z.enum(['confirm', 'leave']).optional().catch(undefined) });

export function waitlistRoutes(waitlist: WaitlistService, publicUrl: string): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/waitlist', { schema: { body: joinWaitlistSchema } }, async (request): Promise<WaitlistJoinAnswer> =>
      waitlist.join(request.body, await currentUser(request), rateLimitAddress(request.ip)),
    );

    app.get('/api/account/waitlist', { onRequest: signedInOnly }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return waitlist.listFor(await requireUser(request));
    });
    app.delete('/api/account/waitlist/:entryId', { onRequest: signedInOnly, schema: { params: z.object({ entryId: idParam('Waitlist entry id') }) } }, async (request, reply) => {
      const left = await waitlist.cancelFor(await requireUser(request), request.params.entryId);
      if (!left) throw new NotFound('You are not on this waitlist.');
      return reply.code(204).send();
    });

    app.get('/api/admin/waitlists', { onRequest: adminOnly }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return waitlist.counts();
    });
    app.get('/api/admin/waitlists/:productId.csv', { onRequest: adminOnly, schema: { params: z.object({ productId: idParam('Product id') }) } }, async (request, reply) => {
      const { productId } = request.params;
      asCsvDownload(reply, `waitlist-product-${productId}.csv`);
      return waitlist.exportCsv(productId);
    });

    await app.register(mailLinkRoutes(waitlist, publicUrl));
  };
}

/** The pages the links in waitlist mails open; their own scope, as only they take form posts. */
function mailLinkRoutes(waitlist: WaitlistService, publicUrl: string): FastifyPluginAsyncZod {
  const send = (reply: FastifyReply, page: LinkPage, found = true) => sendLinkPage(reply, linkPage(page, publicUrl), found);

  const invalid: LinkPage = {
    title: 'Link not valid',
    message: 'This waitlist link is invalid or no longer works. Links to confirm work for 7 days: sign up again on the product page to get a new one.',
  };
  const productLink = (state: Exclude<ManageLinkState, { state: 'invalid' }>) => ({ href: `${publicUrl}/product/${state.productId}`, label: `See ${state.productName}` });

  /** What the manage link shows for the entry's state; `token` makes the button's address. */
  const managePage = (state: ManageLinkState, token: string): LinkPage => {
    if (state.state === 'invalid') return invalid;
    const address = manageLinkPath(token);
    if (state.state === 'confirm') {
      return {
        title: 'Confirm your place',
        message: `Press Confirm and we will e-mail you once when ${state.productName} is back.`,
        form: { action: `${address}&action=confirm`, button: 'Confirm' },
      };
    }
    if (state.state === 'waiting') {
      return {
        title: "You're on the waitlist",
        message: `We will e-mail you once when ${state.productName} is back. Changed your mind? Leave the waitlist below.`,
        form: { action: `${address}&action=leave`, button: 'Leave the waitlist' },
        link: productLink(state),
      };
    }
    return { title: 'It is back', message: `We have already e-mailed you that ${state.productName} is back.`, link: productLink(state) };
  };

  return async (app) => {
    acceptOneClickPosts(app);

    // Mail scanners open every link, so a GET only shows; the page's button posts.
    app.get('/api/waitlist/manage', { schema: { querystring: manageQuerySchema } }, async (request, reply) => {
      const { token } = request.query;
      const state = await waitlist.manageLinkState(token);
      return send(reply, managePage(state, token ?? ''), state.state !== 'invalid');
    });

    app.post('/api/waitlist/manage', { schema: { querystring: manageQuerySchema } }, async (request, reply) => {
      const { token, action } = request.query;
      if (action === 'leave') {
        const before = await waitlist.manageLinkState(token);
        if (before.state === 'invalid' || !(await waitlist.leaveByLink(token))) return send(reply, invalid, false);
        return send(reply, { title: 'You have left the waitlist', message: `We will not e-mail you about ${before.productName}.`, link: productLink(before) });
      }
      // Without an action (a post nobody's button made) the page is shown again, and nothing changes.
      const state = action === 'confirm' ? await waitlist.confirm(token, await currentUser(request)) : await waitlist.manageLinkState(token);
      if (state.state === 'invalid') return send(reply, invalid, false);
      if (state.state === 'waiting' && action === 'confirm') {
        return send(reply, {
          title: "You're on the waitlist",
          message: `Thank you. We will e-mail you once when ${state.productName} is back.`,
          link: productLink(state),
        });
      }
      return send(reply, managePage(state, token ?? ''));
    });

    app.get('/api/waitlist/unsubscribe', { schema: { querystring: waitlistTokenQuerySchema } }, async (request, reply) => {
      const { token } = request.query;
      if (!token || !(await waitlist.unsubscribeLinkKnown(token))) return send(reply, invalid, false);
      return send(reply, {
        title: 'Leave every waitlist?',
        message: 'Press Unsubscribe and we will take this address off every Mango Shop waitlist it is on.',
        form: { action: unsubscribeLinkPath(token), button: 'Unsubscribe' },
      });
    });

    app.post('/api/waitlist/unsubscribe', { schema: { querystring: waitlistTokenQuerySchema } }, async (request, reply) => {
      if (!(await waitlist.unsubscribe(request.query.token))) return send(reply, invalid, false);
      return send(reply, { title: 'Unsubscribed', message: 'This address is on no Mango Shop waitlist now. We will send it no more waitlist e-mails.' });
    });
  };
}
