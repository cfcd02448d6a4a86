import type { FastifyReply } from 'fastify';
import { acceptOneClickPosts, sendLinkPage } from '../../lib/link-page';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rateLimitAddress } from '../../lib/client-address';
import { subscribeSchema, unsubscribeQuerySchema, type SubscribeAnswer } from '../../../contracts/newsletter';
import { subscribe, subscribedAnswer, unsubscribe, unsubscribeLinkState, unsubscribePath, type NewsletterDeps } from './service';
import { type UnsubscribeOutcome, unsubscribePage } from './unsubscribe-page';

export function newsletterRoutes(deps: NewsletterDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/newsletter', { schema: { body: subscribeSchema } }, async (request): Promise<SubscribeAnswer> => {
      await subscribe(deps, request.body, rateLimitAddress(request.ip));
      return { message: subscribedAnswer };
    });
    // Its own scope: only the unsubscribe link takes form posts, the rest of the API stays JSON only.
    await app.register(unsubscribeLinkRoutes(deps));
  };
}

function unsubscribeLinkRoutes(deps: NewsletterDeps): FastifyPluginAsyncZod {
  // Opened from a mail client, so it answers a page, not JSON; the token must not leak onwards.
  const sendPage = (reply: FastifyReply, outcome: UnsubscribeOutcome, formAction?: string) =>
    sendLinkPage(reply, unsubscribePage(outcome, deps.publicUrl, formAction), outcome !== 'invalid');

  return async (app) => {
    acceptOneClickPosts(app);

    // Mail scanners open every link, so a GET only asks; the page's button posts.
    app.get('/api/newsletter/unsubscribe', { schema: { querystring: unsubscribeQuerySchema } }, async (request, reply) => {
      const { token } = request.query;
      const state = await unsubscribeLinkState(deps.db, token);
      if (state === 'subscribed' && token) return sendPage(reply, 'confirm', unsubscribePath(token));
      return sendPage(reply, state === 'unsubscribed' ? 'unsubscribed' : 'invalid');
    });

    app.post('/api/newsletter/unsubscribe', { schema: { querystring: unsubscribeQuerySchema } }, async (request, reply) => {
      const done = await unsubscribe(deps.db, request.query.token);
      return sendPage(reply, done ? 'unsubscribed' : 'invalid');
    });
  };
}
