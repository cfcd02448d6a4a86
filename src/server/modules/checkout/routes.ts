import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { quoteRequestSchema } from '../../../contracts/checkout';
import type { Db } from '../../db/client';
import { requireUser } from '../auth/request-user';
import type { DeliveryService } from '../delivery/service';
import type { CheckoutPaymentMethod } from '../../../contracts/order';
import { hasBankAccount } from '../settings/bank-account';
import type { SettingsService } from '../settings/service';
import { priceCart, quoteView } from './quote';

export function checkoutRoutes(deps: { db: Db; settings: SettingsService; delivery: DeliveryService; cardPayments: boolean }): FastifyPluginAsyncZod {
  return async (app) => {
    /** The totals the order will have, from the shopper's own cart; nothing priced by the browser. */
    app.post('/api/checkout/quote', { schema: { body: quoteRequestSchema } }, async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      const settings = await deps.settings.stored();
      const { shippingCents } = settings;
      const { ruralSurchargeCents } = await deps.delivery.settings();
      // Collected from the shop: no delivery fee and no rural surcharge.
      const pickup = request.body.fulfilment === 'pickup';
      const prices = pickup ? { shippingCents: 0, ruralSurchargeCents: 0 } : { shippingCents, ruralSurchargeCents: request.body.rural ? ruralSurchargeCents : 0 };
      const quote = quoteView(await priceCart(deps.db, prices, user.id, request.body.promoCode));
      // Bank transfer only once there is an account to pay into; card only with Stripe set up.
      const paymentMethods: CheckoutPaymentMethod[] = [];
      if (hasBankAccount(settings)) paymentMethods.push('bank_transfer');
      if (deps.cardPayments) paymentMethods.push('stripe');
      return { ...quote, paymentMethods };
    });
  };
}
