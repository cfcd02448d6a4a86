/**
 * Stripe Checkout, played on loopback for the browser journeys: the shop creates, reads and
 * expires sessions here, the shopper "pays" on a plain page, and the double sends the shop a
 * webhook signed with the shop's secret, as Stripe does, before returning the shopper to the
 * success address. A second button pays but holds the webhook back, as when Stripe is late.
 */
import http from 'node:http';
import { stripeSignatureHeader } from '../src/server/testing/stripe-signature';

const port = Number(process.env.STRIPE_DOUBLE_PORT);
const shopUrl = process.env.SHOP_URL!;
const secretKey = process.env.STRIPE_SECRET_KEY!;
const webhookSecret = process.env.STRIPE_WEBHOOK_SECRET!;

interface Session {
  id: string;
  orderNumber: string;
  amount: number;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'complete' | 'expired';
}
const sessions = new Map<string, Session>();
/** Refunds made, by idempotency key: a repeated key answers the same refund. */
const refunds = new Map<string, { id: string; amount: number; payment_intent: string }>();

function read(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
  });
}

/** A session in Stripe's field names; a complete session here is always paid. */
const view = (session: Session) => ({
  id: session.id,
  object: 'checkout.session',
  url: `http://127.0.0.1:${port}/pay/${session.id}`,
  status: session.status,
  payment_status: session.status === 'complete' ? 'paid' : 'unpaid',
  payment_intent: session.status === 'complete' ? session.id.replace('cs_test_', 'pi_test_') : null,
  amount_total: session.amount,
  currency: 'nzd',
  client_reference_id: session.orderNumber,
});

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function payAndNotify(session: Session): Promise<void> {
  const payload = JSON.stringify({
    id: `evt_${session.id}`,
    type: 'checkout.session.completed',
    data: { object: { id: session.id, client_reference_id: session.orderNumber, payment_status: 'paid', amount_total: session.amount, currency: 'nzd' } },
  });
  await fetch(`${shopUrl}/api/payments/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignatureHeader(webhookSecret, payload) },
    body: payload,
  });
}

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
  const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (url.pathname === '/health') return json(200, { ok: true });
  if (url.pathname === '/favicon.ico') return response.writeHead(204).end();
  if (url.pathname.startsWith('/v1/') && request.headers.authorization !== `Bearer ${secretKey}`) return json(401, { error: { message: 'Invalid API key' } });

  if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
    const form = new URLSearchParams(await read(request));
    const id = `cs_test_${sessions.size + 1}`;
    sessions.set(id, {
      id,
      orderNumber: form.get('client_reference_id') ?? '',
      amount: Number(form.get('line_items[0][price_data][unit_amount]')),
      successUrl: form.get('success_url') ?? '',
      cancelUrl: form.get('cancel_url') ?? '',
      status: 'open',
    });
    return json(200, view(sessions.get(id)!));
  }
  if (request.method === 'POST' && url.pathname === '/v1/refunds') {
    const form = new URLSearchParams(await read(request));
    const key = String(request.headers['idempotency-key'] ?? `none-${refunds.size}`);
    const refund = refunds.get(key) ?? { id: `re_test_${refunds.size + 1}`, amount: Number(form.get('amount')), payment_intent: form.get('payment_intent') ?? '' };
    refunds.set(key, refund);
    return json(200, { ...refund, object: 'refund', status: 'succeeded', currency: 'nzd' });
  }
  // What the journeys read back: the refunds Stripe was asked for.
  if (request.method === 'GET' && url.pathname === '/test/refunds') return json(200, [...refunds.values()]);
  const api = /^\/v1\/checkout\/sessions\/([\w-]+)(\/expire)?$/.exec(url.pathname);
  const known = api ? sessions.get(api[1]!) : undefined;
  if (api && !known) return json(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
  if (known && request.method === 'GET' && !api![2]) return json(200, view(known));
  if (known && request.method === 'POST' && api![2]) {
    if (known.status !== 'open') return json(400, { error: { type: 'invalid_request_error', message: `This Checkout Session is ${known.status}` } });
    known.status = 'expired';
    return json(200, view(known));
  }
  const pay = /^\/pay\/([\w-]+)$/.exec(url.pathname);
  const session = pay ? sessions.get(pay[1]!) : undefined;
  if (pay && session && request.method === 'GET') {
    const amount = `$${(session.amount / 100).toFixed(2)}`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>Test card payment</title></head>
<body><main><h1>Test card payment</h1><p>Order ${escape(session.orderNumber)}: ${amount} NZD</p>
<form method="post"><button type="submit">Pay ${amount}</button></form>
<form method="post" action="?webhook=held"><button type="submit">Pay, holding the webhook back</button></form>
<a href="${escape(session.cancelUrl)}">Back to the shop</a></main></body></html>`);
    return;
  }
  if (pay && session?.status === 'open' && request.method === 'POST') {
    session.status = 'complete';
    if (url.searchParams.get('webhook') !== 'held') await payAndNotify(session);
    response.writeHead(303, { location: session.successUrl }).end();
    return;
  }
  json(404, { error: { message: 'No such route' } });
});

server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
