import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ordersBusyMessage as busyMessage, placeOrderSchema } from '../../../contracts/checkout';
import { orderNumberPattern, type PlacedOrder } from '../../../contracts/order';
import { refundAccountSchema } from '../../../contracts/refunds';
import { TooManyRequests } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { PacedSlots } from '../../lib/request-slots';
import type { StripeCheckout } from '../../lib/payments';
import { requireUser, signedInOnly } from '../auth/request-user';
import type { OrderService } from './service';

/** `:number` of the order routes; a malformed number is simply not an order. */
export const orderParams = z.object({
  number: z.string().trim().regex(orderNumberPattern, 'Order not found'),
});

export interface OrderRouteDeps {
  orders: OrderService;
  limiter: RateLimiter;
  stripe: StripeCheckout | undefined;
  ordersPerUserPerHour: number;
  /** Placements this process takes at once at most (ORDERS_AT_ONCE). */
  ordersAtOnce: number;
  /** Placements are let in as many at once as can be answered in about this long (ORDERS_ANSWER_WITHIN_MS). */
  ordersAnswerWithinMs: number;
  /** A Checkout session in setup mode completed: a card season box's card is saved (docs/season-box.md). */
  cardSaved?: (sessionId: string, reference: string | null) => Promise<string>;
}

export function orderRoutes(deps: OrderRouteDeps): FastifyPluginAsyncZod {
  const { orders, limiter } = deps;
  // Counted in all only: a double click's second submit waits for the first and answers its order.
  const placements = new PacedSlots({ total: deps.ordersAtOnce, targetMs: deps.ordersAnswerWithinMs });
  return async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    /**
     * Places the signed-in shopper's cart as an order; a repeated idempotency key answers the same
     * order. In a rush, placements beyond what the database can take at
     * once are answered 429 at once with Retry-After, before anything is counted or written:
     * checkout keeps its order key and tries again, so the shopper keeps their place.
     */
    // When every slot is taken the answer needs no session lookup, which would wait its turn behind the placements.
    const refuseWhenFull = async (): Promise<void> => {
      if (placements.full) throw new TooManyRequests(busyMessage, 1);
    };
    app.post('/api/orders', { onRequest: [refuseWhenFull, signedInOnly], schema: { body: placeOrderSchema } }, async (request, reply): Promise<PlacedOrder> => {
      const user = await requireUser(request);
      const release = placements.take();
      if (!release) throw new TooManyRequests(busyMessage, 1);
      try {
        await limiter.consume(
          { key: `orders:${user.id}`, max: deps.ordersPerUserPerHour, windowMs: 60 * 60 * 1000 },
          'You have placed a lot of orders in a short time. Please try again later.',
        );
        // The slot is the database's: given back once the order is in it, not after Stripe answers.
        const { created, ...placed } = await orders.place(user, request.body, { committed: release });
        reply.code(created ? 201 : 200);
        return placed;
      } finally {
        release();
      }
    });

    app.get('/api/orders', { onRequest: signedInOnly }, async (request) => orders.listFor((await requireUser(request)).id));

    app.get('/api/orders/:number', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request) => {
      const user = await requireUser(request);
      return orders.view(await orders.findFor(user, request.params.number, true));
    });

    app.post('/api/orders/:number/cancel', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request) =>
      orders.cancelByShopper(await requireUser(request), request.params.number),
    );

    /** Where a refund owed by transfer is to be paid: the shopper's own account, for their own order only. */
    app.post('/api/orders/:number/refund-account', { onRequest: signedInOnly, schema: { params: orderParams, body: refundAccountSchema } }, async (request) => {
      const user = await requireUser(request);
      await orders.refunds.giveAccount(user, request.params.number, request.body);
      return orders.view(await orders.findFor(user, request.params.number));
    });

    /** Starts (or restarts) the Stripe payment of an unpaid card order. */
    app.post('/api/orders/:number/pay', { onRequest: signedInOnly, schema: { params: orderParams } }, async (request) => {
      const user = await requireUser(request);
      const order = await orders.findFor(user, request.params.number);
      return { checkoutUrl: await orders.startCardPayment(order, user) };
    });

    // Stripe signs the exact bytes it sent, so this one route keeps its JSON body as text.
    await app.register(async (webhook) => {
      webhook.removeContentTypeParser('application/json');
      webhook.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
      webhook.post('/api/payments/stripe/webhook', async (request, reply) => {
        if (!deps.stripe) return reply.code(404).send({ message: 'Card payments are not set up.' });
        const signature = request.headers['stripe-signature'];
        const event = deps.stripe.verifyEvent(String(request.body ?? ''), typeof signature === 'string' ? signature : undefined);
        const session = event.data?.object ?? {};
        if (event.type === 'checkout.session.completed' && session.mode === 'setup' && session.id && deps.cardSaved) {
          const outcome = await deps.cardSaved(session.id, session.client_reference_id ?? null);
          request.log.info({ event: event.id, session: session.id, outcome }, 'stripe card saved event');
          return { received: true, outcome };
        }
        const paid =
          (event.type === 'checkout.session.completed' && session.payment_status === 'paid') || event.type === 'checkout.session.async_payment_succeeded';
        if (!paid || !session.client_reference_id) return { received: true };
        const outcome = await orders.recordCardPayment({
          orderNumber: session.client_reference_id,
          sessionId: session.id ?? '',
          amountCents: session.amount_total ?? -1,
          currency: session.currency ?? '',
        });
        request.log.info({ event: event.id, order: session.client_reference_id, outcome }, 'stripe payment event');
        return { received: true, outcome };
      });
    });
  };
}
