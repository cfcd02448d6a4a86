import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequest } from './errors';

/** Stripe's default tolerance: a signed webhook older than five minutes is refused (replays). */
const signatureToleranceSeconds = 300;
/** Stripe keeps a Checkout session open for 30 minutes at least and 24 hours at most. */
export const sessionLifetimeLimits = { minSeconds: 31 * 60, maxSeconds: 23 * 60 * 60 };

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
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
}

/** The parts of a Checkout session this shop reads, as Stripe has it now. */
export interface CheckoutSessionState {
  id: string;
  status: 'open' | 'complete' | 'expired';
  /** 'paid' once the money is taken; a complete session may still be 'unpaid' while a delayed payment processes. */
  paymentStatus: string;
  amountCents: number | null;
  currency: string | null;
}

interface StripeSessionBody {
  id: string;
  status: CheckoutSessionState['status'];
  payment_status: string;
  amount_total?: number | null;
  currency?: string | null;
}

const sessionState = (body: StripeSessionBody): CheckoutSessionState => ({
  id: body.id,
  status: body.status,
  paymentStatus: body.payment_status,
  amountCents: body.amount_total ?? null,
  currency: body.currency ?? null,
});

/** The parts of a Stripe event this shop reads. */
export interface StripeEvent {
  id: string;
  type: string;
  data: {
    object: {
      id?: string;
      client_reference_id?: string | null;
      payment_status?: string;
      amount_total?: number | null;
      currency?: string | null;
    };
  };
}

/**
 * Card payments through Stripe Checkout: the shopper pays on Stripe's page, so card data never
 * reaches this server; only a webhook signed with our secret marks an order paid.
 */
export class StripeCheckout {
  constructor(private readonly config: StripeConfig) {}

  /** One NZD line of the order's total (discounts and shipping are already in it). */
  async createSession(request: CheckoutSessionRequest): Promise<{ id: string; url: string }> {
    const form = new URLSearchParams({
      mode: 'payment',
      client_reference_id: request.orderNumber,
      'metadata[order_number]': request.orderNumber,
      customer_email: request.customerEmail,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      expires_at: String(Math.floor(request.expiresAt.getTime() / 1000)),
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'nzd',
      'line_items[0][price_data][unit_amount]': String(request.totalCents),
      'line_items[0][price_data][product_data][name]': `Mango Shop order ${request.orderNumber}`,
    });
    const response = await fetch(`${this.config.apiUrl}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json().catch(() => ({}))) as { id?: string; url?: string; error?: { message?: string } };
    if (!response.ok || !body.id || !body.url) {
      throw new Error(`Stripe refused the checkout session (${response.status}): ${body.error?.message ?? 'no details'}`);
    }
    return { id: body.id, url: body.url };
  }

  /** A session as Stripe has it now: open, complete (paid, or a delayed payment still processing) or expired. */
  async retrieveSession(sessionId: string): Promise<CheckoutSessionState> {
    const response = await fetch(`${this.config.apiUrl}/v1/checkout/sessions/${encodeURIComponent(sessionId)}`, {
      headers: { authorization: `Bearer ${this.config.secretKey}` },
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`Stripe could not find session ${sessionId} (${response.status})`);
    return sessionState((await response.json()) as StripeSessionBody);
  }

  /**
   * Closes a session so it can no longer take a payment, and answers the session as it is then.
   * Stripe refuses (400) to close a session that is no longer open: expired already, or complete
   * because the shopper has just paid; the caller must tell those apart.
   */
  async expireSession(sessionId: string): Promise<CheckoutSessionState> {
    const response = await fetch(`${this.config.apiUrl}/v1/checkout/sessions/${encodeURIComponent(sessionId)}/expire`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.secretKey}` },
      signal: AbortSignal.timeout(15_000),
    });
    if (response.ok) return sessionState((await response.json()) as StripeSessionBody);
    const now = response.status === 400 ? await this.retrieveSession(sessionId) : undefined;
    if (!now || now.status === 'open') throw new Error(`Stripe could not expire session ${sessionId} (${response.status})`);
    return now;
  }

  /** The event in a webhook body, once its `Stripe-Signature` proves it came from Stripe recently. */
  verifyEvent(rawBody: string, signatureHeader: string | undefined, nowMs = Date.now()): StripeEvent {
    const refused = new BadRequest('Invalid Stripe signature');
    if (!signatureHeader) throw refused;
    const parts = signatureHeader.split(',').map((part) => part.trim().split('='));
    const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
    const signatures = parts.filter(([key]) => key === 'v1').map(([, value]) => value ?? '');
    if (!Number.isInteger(timestamp) || !signatures.length) throw refused;
    if (Math.abs(nowMs / 1000 - timestamp) > signatureToleranceSeconds) throw refused;
    const expected = Buffer.from(signStripePayload(this.config.webhookSecret, timestamp, rawBody), 'hex');
    const matches = signatures.some((signature) => {
      const given = Buffer.from(signature, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) throw refused;
    try {
      return JSON.parse(rawBody) as StripeEvent;
    } catch {
      throw new BadRequest('The webhook body is not JSON');
    }
  }
}

/** Stripe's v1 scheme: HMAC-SHA256 of `{timestamp}.{body}` with the endpoint's secret, in hex. */
export function signStripePayload(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}
