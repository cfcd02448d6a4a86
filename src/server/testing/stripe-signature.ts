import Stripe from 'stripe';

/** The `Stripe-Signature` header Stripe would send with this body: for API tests and the browser journeys' double. */
export function stripeSignatureHeader(secret: string, payload: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
