import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rateLimitAddress } from '../../lib/client-address';
import { subscribeSchema, unsubscribeQuerySchema, type SubscribeAnswer } from '../../../contracts/newsletter';
import { subscribe, subscribedAnswer, unsubscribe, unsubscribeLinkState, unsubscribePath, type NewsletterDeps } from './service';
import { type UnsubscribeOutcome, unsubscribePage } from './unsubscribe-page';

/** The one-click body (`List-Unsubscribe=One-Click`) is all a post carries; anything larger is not one. */
const oneClickBodyLimit = 4096;

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
    reply
      .code(outcome === 'invalid' ? 404 : 200)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(unsubscribePage(outcome, deps.publicUrl, formAction));

  return async (app) => {
    // RFC 8058 one-click posts come form encoded or as multipart, and their one field says only
    // "One-Click": the body is read and dropped, the token in the address decides.
    app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'buffer', bodyLimit: oneClickBodyLimit }, (_request, _body, done) =>
      done(null, undefined),
    );

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
