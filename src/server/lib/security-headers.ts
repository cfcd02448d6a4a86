import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of the shop. Analytics (spec 7) loads GA4 and the Meta pixel only when
 * their ids are set, so their hosts are allowed; nothing else outside the shop is. GA4 sends hits by
 * fetch, beacon or image to *.google-analytics.com and *.analytics.google.com (Google's CSP guide);
 * the pixel sends to www.facebook.com/tr and reports its own errors to connect.facebook.net.
 */
const analyticsScripts = ['https://www.googletagmanager.com', 'https://connect.facebook.net'];
const analyticsConnect = ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com', 'https://www.facebook.com', 'https://connect.facebook.net'];
const analyticsImages = ['https://*.google-analytics.com', 'https://www.googletagmanager.com', 'https://www.facebook.com'];

/**
 * The policy, with the script and connection sources a page adds: its inline scripts' nonce or
 * hashes (render-pages.ts), and in development Vite's hot-reload socket.
 */
export function contentSecurityPolicy(extra: { scriptSources?: readonly string[]; connectSources?: readonly string[] } = {}): string {
  return [
    "default-src 'self'",
    ['script-src', "'self'", ...(extra.scriptSources ?? []), ...analyticsScripts].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${analyticsImages.join(' ')}`,
    "font-src 'self'",
    ['connect-src', "'self'", ...(extra.connectSources ?? []), ...analyticsConnect].join(' '),
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * What every answer carries, JSON included: no framing, no sniffing a type, no reading it from
 * another site, HTTPS only, and a policy that lets nothing load (OWASP's set for REST answers).
 */
const apiPolicy = "default-src 'none'; frame-ancestors 'none'";
export const apiSecurityHeaders: Record<string, string> = {
  'content-security-policy': apiPolicy,
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * Helmet's protections, as fixed strings computed once (@fastify/helmet rebuilt the policy on
 * every request): every answer that is not JSON (pages, pictures, scripts, CSV, errors in HTML)
 * gets them all. They govern documents and what documents load, so a JSON answer, which nothing
 * renders, is spared the kilobyte they add to each of the shop's busiest answers (decision 0022).
 */
export const securityHeaders: Record<string, string> = {
  ...apiSecurityHeaders,
  'content-security-policy': contentSecurityPolicy(),
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
};

const documentOnly = Object.entries(securityHeaders).filter(([name]) => !(name in apiSecurityHeaders));

function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('application/json');
}

/** Every answer carries the security headers and the request id (for support and the logs). */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(apiSecurityHeaders);
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!isJson(reply.getHeader('content-type'))) {
      for (const [name, value] of documentOnly) if (!reply.hasHeader(name)) reply.header(name, value);
      // A page that set its own policy (with its scripts' nonce) keeps it.
      if (reply.getHeader('content-security-policy') === apiPolicy) reply.header('content-security-policy', securityHeaders['content-security-policy']!);
    }
    done(null, payload);
  });
}
