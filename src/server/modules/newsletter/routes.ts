import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rateLimitAddress } from '../../lib/client-address';
import { subscribeSchema, unsubscribeQuerySchema, type SubscribeAnswer } from '../../../contracts/newsletter';
import { subscribe, subscribedAnswer, unsubscribe, type NewsletterDeps } from './service';
import { unsubscribePage } from './unsubscribe-page';

export function newsletterRoutes(deps: NewsletterDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/newsletter', { schema: { body: subscribeSchema } }, async (request): Promise<SubscribeAnswer> => {
      await subscribe(deps, request.body, rateLimitAddress(request.ip), (error) => request.log.error({ err: error }, 'newsletter welcome mail failed'));
      return { message: subscribedAnswer };
    });

    // Opened from a mail client, so it answers a page, not JSON; the token must not leak onwards.
    app.get('/api/newsletter/unsubscribe', { schema: { querystring: unsubscribeQuerySchema } }, async (request, reply) => {
      const done = await unsubscribe(deps.db, request.query.token);
      return reply
        .code(done ? 200 : 404)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(unsubscribePage(done ? 'unsubscribed' : 'invalid', deps.publicUrl));
    });
  };
}
