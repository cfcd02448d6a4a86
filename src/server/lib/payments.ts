import Stripe from 'stripe';
import { BadRequest } from './errors';

/** Stripe's default tolerance: a signed webhook older than five minutes is refused (replays). */
const signatureToleranceSeconds = 300;
/** Stripe keeps a Checkout session open for 30 minutes at least and 24 hours at most. */
export const sessionLifetimeLimits = { minSeconds: 31 * 60, maxSeconds: 23 * 60 * 60 };
/**
 * One Stripe call gives up after two tries, each abandoned after 5 s without a word from Stripe,
 * with the SDK's half-second pause between them: about 11 s. (Stripe answers these calls in well
 * under a second.) A request makes up to four calls in a row (a card payment that replaces a
 * session), so while Stripe is unreachable one can outlast the 20 s shutdown deadline; the deadline
 * then ends the process, as it is there to do. The sweep stops between orders.
 */
const callLimits = { timeout: 5_000, maxNetworkRetries: 1 };

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API, or a double on loopback in tests: scheme, host and port only. */
  apiUrl: string;
}

export interface CheckoutSessionRequest {
  orderNumber: string;
  totalCents: number;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /** When the session closes: before the order's unpaid timeout, so a cancelled order cannot be paid. */
  expiresAt: Date;
  /** Names this attempt at Stripe: the same key within 24 hours answers the same session. */
  idempotencyKey: string;
}

/** The parts of a Checkout session this shop reads, as Stripe has it now. */
export interface CheckoutSessionState {
  id: string;
  /** 'open', 'complete' or 'expired'. */
  status: string | null;
  /** 'paid' once the money is taken; a complete session may still be 'unpaid' while a delayed payment processes. */
  paymentStatus: string;
  amountCents: number | null;
  currency: string | null;
}

/** The parts of a Stripe event this shop reads. */
export interface StripeEvent {
  id: string;
  type: string;
  data: {
    object: {
      id?: string;
      /** 'payment', or 'setup' for a session that saves a card. */
      mode?: string;
      client_reference_id?: string | null;
      payment_status?: string;
      amount_total?: number | null;
      currency?: string | null;
    };
  };
}

const sessionState = (session: Stripe.Checkout.Session): CheckoutSessionState => ({
  id: session.id,
  status: session.status,
  paymentStatus: session.payment_status,
  amountCents: session.amount_total,
  currency: session.currency,
});

/**
 * Card payments through Stripe Checkout, with Stripe's own Node SDK: the shopper pays on Stripe's
 * page, so card data never reaches this server; only a webhook signed with our secret, or the
 * session read back from Stripe, marks an order paid.
 */
export class StripeCheckout {
  private readonly stripe: Stripe;

  constructor(private readonly config: StripeConfig) {
    // Retries reuse the request's idempotency key, so a lost answer never makes a second session.
    this.stripe = new Stripe(config.secretKey, { ...apiAddress(config.apiUrl), ...callLimits });
  }

  /** One NZD line of the order's total (discounts and shipping are already in it). */
  async createSession(request: CheckoutSessionRequest): Promise<{ id: string; url: string }> {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: request.orderNumber,
        metadata: { order_number: request.orderNumber },
        customer_email: request.customerEmail,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        expires_at: Math.floor(request.expiresAt.getTime() / 1000),
        line_items: [
          { quantity: 1, price_data: { currency: 'nzd', unit_amount: request.totalCents, product_data: { name: `Mango Shop order ${request.orderNumber}` } } },
        ],
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe made checkout session ${session.id} without a payment page`);
    return { id: session.id, url: session.url };
  }

  /** A session as Stripe has it now: open, complete (paid, or a delayed payment still processing) or expired. */
  async retrieveSession(sessionId: string): Promise<CheckoutSessionState> {
    return sessionState(await this.stripe.checkout.sessions.retrieve(sessionId));
  }

  /**
   * Closes a session so it can no longer take a payment, and answers the session as it is then.
   * Stripe refuses to close a session that is no longer open: expired already, or complete
   * because the shopper has just paid; the caller must tell those apart.
   */
  async expireSession(sessionId: string): Promise<CheckoutSessionState> {
    try {
      return sessionState(await this.stripe.checkout.sessions.expire(sessionId));
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      const now = await this.retrieveSession(sessionId);
      if (now.status === 'open') throw error;
      return now;
    }
  }

  /** The payment a completed session took, which a refund is made against; null when it took none. */
  async paymentIntentOf(sessionId: string): Promise<string | null> {
    const session = await this.stripe.checkout.sessions.retrieve(sessionId);
    if (session.payment_status !== 'paid' || !session.payment_intent) return null;
    return typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent.id;
  }

  /**
   * Gives `amountCents` of a card payment back to the card. The key names the shop's refund
   * record: a retry after a lost answer gets the same refund back, never a second one.
   */
  async refund(request: { paymentIntent: string; amountCents: number; idempotencyKey: string; orderNumber: string }): Promise<{ id: string; status: string | null }> {
    const refund = await this.stripe.refunds.create(
      { payment_intent: request.paymentIntent, amount: request.amountCents, metadata: { order_number: request.orderNumber } },
      { idempotencyKey: request.idempotencyKey },
    );
    return { id: refund.id, status: refund.status };
  }

  /** A Stripe customer for a card season box, whose saved card later runs charge. */
  async createCustomer(request: { email: string; name: string; idempotencyKey: string }): Promise<string> {
    const customer = await this.stripe.customers.create({ email: request.email, name: request.name }, { idempotencyKey: request.idempotencyKey });
    return customer.id;
  }

  /**
   * Stripe Checkout in setup mode: the shopper saves a card on Stripe's page (card data never
   * reaches this server) for the customer, to be charged off-session at each run.
   */
  async createSetupSession(request: { customerId: string; reference: string; successUrl: string; cancelUrl: string; idempotencyKey: string }): Promise<{ id: string; url: string }> {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'setup',
        currency: 'nzd',
        customer: request.customerId,
        client_reference_id: request.reference,
        metadata: { season_box: request.reference },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe made setup session ${session.id} without a page`);
    return { id: session.id, url: session.url };
  }

  /** The card a setup session saved, once it is complete; null while it is not. */
  async savedCardOf(sessionId: string): Promise<{ paymentMethodId: string; customerId: string } | null> {
    const session = await this.stripe.checkout.sessions.retrieve(sessionId, { expand: ['setup_intent'] });
    if (session.status !== 'complete' || !session.setup_intent) return null;
    const intent = typeof session.setup_intent === 'string' ? await this.stripe.setupIntents.retrieve(session.setup_intent) : session.setup_intent;
    const paymentMethod = typeof intent.payment_method === 'string' ? intent.payment_method : (intent.payment_method?.id ?? null);
    const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
    if (intent.status !== 'succeeded' || !paymentMethod || !customer) return null;
    return { paymentMethodId: paymentMethod, customerId: customer };
  }

  /**
   * Charges a saved card with no shopper present. The key names the season box's delivery: a
   * retry (a lost answer, a restart) gets the first attempt's outcome back, never a second charge.
   * A card refused (declined, or needing the shopper) answers `declined` with Stripe's reason.
   */
  async chargeSavedCard(request: { customerId: string; paymentMethodId: string; amountCents: number; orderNumber: string; idempotencyKey: string }): Promise<{ outcome: 'paid'; paymentIntentId: string } | { outcome: 'declined'; message: string }> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'nzd',
          customer: request.customerId,
          payment_method: request.paymentMethodId,
          off_session: true,
          confirm: true,
          description: `Mango Shop order ${request.orderNumber}`,
          metadata: { order_number: request.orderNumber },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status === 'succeeded') return { outcome: 'paid', paymentIntentId: intent.id };
      return { outcome: 'declined', message: `The payment is ${intent.status.replace(/_/g, ' ')}` };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) return { outcome: 'declined', message: error.message };
      throw error;
    }
  }

  /** The event in a webhook body, once its `Stripe-Signature` proves it came from Stripe recently. */
  verifyEvent(rawBody: string, signatureHeader: string | undefined): StripeEvent {
    try {
      const event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader ?? '', this.config.webhookSecret, signatureToleranceSeconds);
      return event as unknown as StripeEvent;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new BadRequest('Invalid Stripe signature');
      if (error instanceof SyntaxError) throw new BadRequest('The webhook body is not JSON');
      throw error;
    }
  }
}

/** STRIPE_API_URL as the SDK's address options (it takes no base URL). */
function apiAddress(apiUrl: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}
