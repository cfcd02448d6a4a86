import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import { Forbidden, ServiceUnavailable } from './errors';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Links in mails: the newsletter's and the waitlist's unsubscribe links, a visitor's waitlist link
 * (confirm, or leave), the ripeness reminders' opt-out, the review requests' opt-out and a season box's skip and its undo. The token in the address is their only
 * authority.
 */
const mailLinks = ['/api/newsletter/unsubscribe', '/api/waitlist/unsubscribe', '/api/waitlist/manage', '/api/ripeness-reminders/opt-out', '/api/review-mail/opt-out', '/api/season-box-mail/skip', '/api/season-box-mail/unskip'];

/**
 * Sign-in and sign-out stay open during maintenance so staff can get in (difference 5), card
 * payments made before it began are still recorded, and anyone can leave the newsletter or a waitlist: a list
 * must let people go at any time, and a mail client's one-click post answered 503 would leave the
 * reader on it.
 */
const openDuringMaintenance = new Set(['/api/login', '/api/logout', '/api/payments/stripe/webhook', ...mailLinks]);

/**
 * Requests that carry their own authority, never a cookie's, so a post from another site can do
 * nothing that anyone holding the token could not do from anywhere. Mail providers send RFC 8058
 * one-click unsubscribes from their servers (or their webmail's origin), and the confirm page's own
 * form is sent with `Origin: null` because the page's referrer policy is no-referrer.
 */
const authorisedByToken = new Set(mailLinks);

/**
 * The route the request matched, not its raw URL: `/%61pi/register` reaches `/api/register` and
 * must meet the same checks.
 */
function routePath(request: FastifyRequest): string {
  return request.routeOptions.url ?? decodeURIComponent(request.url.split('?')[0] ?? '');
}

function changesState(request: FastifyRequest): boolean {
  return !safeMethods.has(request.method) && routePath(request).startsWith('/api/');
}

/**
 * ARCHITECTURE difference 9: state-changing requests must come from our own origin, on top of
 * SameSite cookies. Clients that send neither header (curl, server-to-server) are not browsers and
 * carry no ambient cookies, so they pass.
 */
export function registerSameOriginCheck(app: FastifyInstance, config: AppConfig): void {
  const trusted = new Set([...config.allowedOrigins, ...(config.publicUrl ? [config.publicUrl] : [])]);
  // Callback style: a read (most requests) passes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!changesState(request) || authorisedByToken.has(routePath(request))) return done();
    const fetchSite = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const ownOrigin = `${request.protocol}://${request.host}`;
    const originTrusted = origin === ownOrigin || (origin !== undefined && trusted.has(origin));
    if (origin !== undefined && !originTrusted) return done(new Forbidden('This request came from another site and was refused.'));
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none' && !originTrusted) {
      return done(new Forbidden('This request came from another site and was refused.'));
    }
    done();
  });
}

/** What the maintenance guard asks of the shop: whether maintenance is on, and who is asking. */
export interface MaintenanceSource {
  maintenance(): Promise<{ enabled: boolean; message: string }>;
  isAdmin(request: FastifyRequest): Promise<boolean>;
}

/** ARCHITECTURE difference 5: while maintenance is on, only admins change anything. */
export function registerMaintenanceGuard(app: FastifyInstance, source: MaintenanceSource): void {
  const check = async (request: FastifyRequest): Promise<void> => {
    const current = await source.maintenance();
    if (!current.enabled) return;
    if (await source.isAdmin(request)) return;
    throw new ServiceUnavailable(current.message);
  };
  // Callback style: a read (most requests) passes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!changesState(request) || openDuringMaintenance.has(routePath(request))) return done();
    check(request).then(() => done(), done);
  });
}
