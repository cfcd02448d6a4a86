import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Checkout session as the double keeps it, in Stripe's own field names. */
export interface DoubleSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  amount_total: number;
  currency: string;
  client_reference_id: string;
  /** The form the shop sent to create it. */
  form: URLSearchParams;
  idempotencyKey: string | undefined;
  /** The shopper pays at the moment the shop asks Stripe to close the session (a race). */
  paysWhenExpired?: boolean;
  mode: 'payment' | 'setup';
  customer: string | null;
  /** A setup session's intent, once the shopper saved a card. */
  setup_intent: string | null;
}

/** A card saved through a setup session, and whether charges on it are declined. */
export interface DoubleCard {
  setupIntent: string;
  paymentMethod: string;
  customer: string;
  declines: boolean;
}

/**
 * Stripe's Checkout-session API, played on loopback for the API tests: create (form-encoded, with
 * idempotent replay of a repeated key), retrieve and expire. Tests read and change its sessions.
 */
export class StripeApiDouble {
  readonly sessions = new Map<string, DoubleSession>();
  /** Every create request that reached the double, in order (retries included). */
  readonly createRequests: Array<{ idempotencyKey: string | undefined }> = [];
  readonly expireRequests: string[] = [];
  /** Refunds the double made, by id, with the form the shop sent; and every refund request (retries included). */
  readonly refunds = new Map<string, { id: string; payment_intent: string; amount: number; idempotencyKey: string | undefined; orderNumber: string | null }>();
  readonly refundRequests: Array<{ idempotencyKey: string | undefined }> = [];
  /** Answer the next N refund requests with this failure instead of refunding. */
  failRefunds = 0;
  /** Answer the next N refund requests with a 500 after making the refund, as a lost answer would look. */
  loseRefundAnswers = 0;
  /** Answer the next N create requests with a 500 after making the session, as a lost answer would look. */
  failCreates = 0;
  /** Answer every expire request with this status instead of closing the session. */
  expireFailsWith: number | null = null;
  /** Runs after a session is closed and before Stripe's answer goes back: the test acts in between (a race). */
  whileExpiring: ((session: DoubleSession) => Promise<void>) | null = null;
  /**
   * Hold the answers to session reads until this many have arrived, then answer them all: requests
   * that each read the order before asking Stripe then truly overlap (a race, every run). Held
   * answers go after 5 s whatever came, so a test expecting reads that never come fails, not hangs.
   */
  gatherReads = 0;
  /** Customers made, by id; cards saved, by payment method; off-session charges, with each request (retries included). */
  readonly customers = new Map<string, { id: string; email: string; idempotencyKey: string | undefined }>();
  readonly cards = new Map<string, DoubleCard>();
  readonly charges = new Map<string, { id: string; amount: number; paymentMethod: string; idempotencyKey: string | undefined; status: number; body: unknown }>();
  readonly chargeRequests: Array<{ idempotencyKey: string | undefined; paymentMethod: string }> = [];
  private heldReads: Array<() => void> = [];
  private readsTimer: NodeJS.Timeout | undefined;
  private server: http.Server | undefined;

  constructor(private readonly secretKey: string) {}

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => this.answer(request, body, response));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): void {
    this.server?.close();
  }

  /** The session the shop made last for this order. */
  latestFor(orderNumber: string): DoubleSession | undefined {
    return [...this.sessions.values()].filter((session) => session.client_reference_id === orderNumber).at(-1);
  }

  /** The shopper pays on Stripe's page: the session completes, and Stripe's webhook is still to come. */
  pay(sessionId: string, amountCents?: number): void {
    const session = this.sessions.get(sessionId)!;
    Object.assign(session, { status: 'complete', payment_status: 'paid', amount_total: amountCents ?? session.amount_total });
  }

  /** The shopper saves a card on a setup session's page; `declines`: every charge on it is refused. */
  saveCard(sessionId: string, { declines = false } = {}): DoubleCard {
    const session = this.sessions.get(sessionId)!;
    const n = this.cards.size + 1;
    const card: DoubleCard = { setupIntent: `seti_test_${n}`, paymentMethod: `pm_test_${n}`, customer: session.customer ?? '', declines };
    this.cards.set(card.paymentMethod, card);
    Object.assign(session, { status: 'complete', setup_intent: card.setupIntent });
    return card;
  }

  private releaseReads(): void {
    clearTimeout(this.readsTimer);
    this.gatherReads = 0;
    for (const release of this.heldReads.splice(0)) release();
  }

  private answer(request: http.IncomingMessage, body: string, response: http.ServerResponse): void {
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    const invalid = (message: string) => json(400, { error: { type: 'invalid_request_error', message } });
    if (request.headers.authorization !== `Bearer ${this.secretKey}`) return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API key' } });
    const path = new URL(request.url ?? '/', 'http://double').pathname;
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;

    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      this.createRequests.push({ idempotencyKey });
      const replay = idempotencyKey ? [...this.sessions.values()].find((session) => session.idempotencyKey === idempotencyKey) : undefined;
      const session = replay ?? this.create(new URLSearchParams(body), idempotencyKey);
      if (this.failCreates > 0) {
        this.failCreates -= 1;
        return json(500, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
      }
      return json(200, view(session));
    }
    if (request.method === 'POST' && path === '/v1/customers') {
      const replay = idempotencyKey ? [...this.customers.values()].find((customer) => customer.idempotencyKey === idempotencyKey) : undefined;
      const customer = replay ?? { id: `cus_test_${this.customers.size + 1}`, email: new URLSearchParams(body).get('email') ?? '', idempotencyKey };
      this.customers.set(customer.id, customer);
      return json(200, { id: customer.id, object: 'customer', email: customer.email });
    }
    if (request.method === 'POST' && path === '/v1/payment_intents') {
      const form = new URLSearchParams(body);
      const paymentMethod = form.get('payment_method') ?? '';
      this.chargeRequests.push({ idempotencyKey, paymentMethod });
      const replay = idempotencyKey ? [...this.charges.values()].find((charge) => charge.idempotencyKey === idempotencyKey) : undefined;
      if (replay) return json(replay.status, replay.body);
      const card = this.cards.get(paymentMethod);
      if (!card || card.customer !== form.get('customer') || form.get('off_session') !== 'true' || form.get('confirm') !== 'true') return invalid(`No such PaymentMethod: '${paymentMethod}'`);
      const id = `pi_off_${this.charges.size + 1}`;
      const amount = Number(form.get('amount'));
      const declined = { error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.', payment_intent: { id, status: 'requires_payment_method' } } };
      const answer = card.declines ? { status: 402, body: declined } : { status: 200, body: { id, object: 'payment_intent', amount, currency: form.get('currency'), status: 'succeeded', customer: card.customer, payment_method: paymentMethod } };
      this.charges.set(id, { id, amount, paymentMethod, idempotencyKey, ...answer });
      return json(answer.status, answer.body);
    }
    const setupIntent = /^\/v1\/setup_intents\/([\w-]+)$/.exec(path);
    if (request.method === 'GET' && setupIntent) {
      const card = [...this.cards.values()].find((one) => one.setupIntent === setupIntent[1]);
      if (!card) return json(404, { error: { type: 'invalid_request_error', message: 'No such setupintent' } });
      return json(200, setupIntentView(card));
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      this.refundRequests.push({ idempotencyKey });
      if (this.failRefunds > 0) {
        this.failRefunds -= 1;
        return json(500, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
      }
      const form = new URLSearchParams(body);
      const paymentIntent = form.get('payment_intent') ?? '';
      const charged = this.charges.get(paymentIntent);
      const paid = charged?.status === 200 ? { amount_total: charged.amount } : [...this.sessions.values()].find((session) => paymentIntentOf(session) === paymentIntent);
      if (!paid) return invalid(`No such payment_intent: '${paymentIntent}'`);
      const replay = idempotencyKey ? [...this.refunds.values()].find((refund) => refund.idempotencyKey === idempotencyKey) : undefined;
      const refund = replay ?? { id: `re_test_${this.refunds.size + 1}`, payment_intent: paymentIntent, amount: Number(form.get('amount')), idempotencyKey, orderNumber: form.get('metadata[order_number]') };
      const given = [...this.refunds.values()].filter((other) => other.payment_intent === paymentIntent && other !== replay).reduce((sum, other) => sum + other.amount, 0);
      if (!replay && given + refund.amount > paid.amount_total) return invalid(`Refund amount ($${refund.amount / 100}) is greater than unrefunded amount on charge ($${(paid.amount_total - given) / 100})`);
      this.refunds.set(refund.id, refund);
      if (this.loseRefundAnswers > 0) {
        this.loseRefundAnswers -= 1;
        return json(500, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
      }
      return json(200, { id: refund.id, object: 'refund', amount: refund.amount, payment_intent: refund.payment_intent, status: 'succeeded', currency: 'nzd' });
    }
    const match = /^\/v1\/checkout\/sessions\/([\w-]+)(\/expire)?$/.exec(path);
    const session = match ? this.sessions.get(match[1]!) : undefined;
    if (!session) return json(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
    if (request.method === 'GET' && !match![2]) {
      if (new URL(request.url ?? '/', 'http://double').searchParams.getAll('expand[]').includes('setup_intent') && session.setup_intent) {
        const card = [...this.cards.values()].find((one) => one.setupIntent === session.setup_intent)!;
        return json(200, { ...view(session), setup_intent: setupIntentView(card) });
      }
      if (this.gatherReads === 0) return json(200, view(session));
      this.heldReads.push(() => json(200, view(session)));
      if (this.heldReads.length === 1) this.readsTimer = setTimeout(() => this.releaseReads(), 5000).unref();
      if (this.heldReads.length >= this.gatherReads) this.releaseReads();
      return;
    }
    if (request.method === 'POST' && match![2]) {
      this.expireRequests.push(session.id);
      if (this.expireFailsWith) return json(this.expireFailsWith, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
      if (session.paysWhenExpired && session.status === 'open') this.pay(session.id);
      if (session.status !== 'open') return invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This one is "${session.status}".`);
      session.status = 'expired';
      if (!this.whileExpiring) return json(200, view(session));
      this.whileExpiring(session).then(
        () => json(200, view(session)),
        () => json(500, { error: { type: 'api_error', message: 'The test failed while this session was being closed' } }),
      );
      return;
    }
    invalid('No such route');
  }

  private create(form: URLSearchParams, idempotencyKey: string | undefined): DoubleSession {
    const setup = form.get('mode') === 'setup';
    const session: DoubleSession = {
      id: `cs_test_${this.sessions.size + 1}`,
      status: 'open',
      payment_status: setup ? 'no_payment_required' : 'unpaid',
      mode: setup ? 'setup' : 'payment',
      customer: form.get('customer'),
      setup_intent: null,
      amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
      currency: form.get('line_items[0][price_data][currency]') ?? '',
      client_reference_id: form.get('client_reference_id') ?? '',
      form,
      idempotencyKey,
    };
    this.sessions.set(session.id, session);
    return session;
  }
}

function setupIntentView(card: DoubleCard) {
  return { id: card.setupIntent, object: 'setup_intent', status: 'succeeded', payment_method: card.paymentMethod, customer: card.customer, usage: 'off_session' };
}

/** A paid session's payment, which refunds are made against. */
function paymentIntentOf(session: DoubleSession): string | null {
  return session.payment_status === 'paid' ? session.id.replace('cs_test_', 'pi_test_') : null;
}

function view(session: DoubleSession) {
  const { form: _form, idempotencyKey: _key, paysWhenExpired: _race, ...fields } = session;
  return { ...fields, payment_intent: paymentIntentOf(session), object: 'checkout.session', url: `https://checkout.stripe.test/pay/${session.id}` };
}
